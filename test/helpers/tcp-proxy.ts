// A TCP proxy on 127.0.0.1 in front of a database server, for tests of what a lost connection does
// without touching the shared server: cut every connection through it (a network blip, a fail-over),
// refuse new ones (the server is down), and accept them again.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './local.js';

export interface TcpProxy {
  port: number;
  /** Destroys every open connection, both ways, as a dropped network would. */
  cut(): void;
  /** Stops listening (new connections are refused) and cuts the open ones. */
  down(): Promise<void>;
  /** Listens again. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        track(client);
        track(upstream);
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const cut = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const down = () =>
    new Promise<void>((resolve) => {
      cut();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return { port, cut, down, up: listen, close: down };
}

/** The same database URL, reached through the proxy. */
export function throughProxy(databaseUrl: string, proxy: TcpProxy): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}
