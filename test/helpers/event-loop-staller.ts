// Loaded into a test's server process (startServerProcess's `imports`), never into the service: on
// SIGUSR2 the process's event loop stalls, in slices of 250 ms with a few milliseconds between them, for
// four seconds, as a process swamped by work would. The requests that arrive meanwhile are served
// between the slices.
const SLICE_MS = 250;
const FOR_MS = 4_000;

process.on('SIGUSR2', () => {
  const until = Date.now() + FOR_MS;
  const slice = () => {
    const end = Date.now() + SLICE_MS;
    while (Date.now() < end) {
      // busy: nothing else runs on this thread
    }
    if (Date.now() < until) setTimeout(slice, 2);
  };
  slice();
});
