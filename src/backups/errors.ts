/** A backup or a restore that cannot be done, with what to do about it (the command line prints the message). */
export class BackupError extends Error {
  override name = 'BackupError';
}
