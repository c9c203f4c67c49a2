// The backup file: a POSIX tar archive (ustar), so that `tar -tf` lists it and `tar -xf` opens it without
// slotbook. Written and read here with a few lines rather than a dependency: members are regular files
// only, copied in chunks (a database of gigabytes never sits in memory), names of at most 100 bytes.
import { open, type FileHandle } from 'node:fs/promises';

const BLOCK = 512;
const CHUNK = 1024 * 1024;

function header(name: string, size: number, mtimeMs: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`archive member name too long: ${name}`);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii'); // mode
  block.write(octal(0, 8), 108, 'ascii'); // uid
  block.write(octal(0, 8), 116, 'ascii'); // gid
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii'); // the checksum counts as spaces while it is computed
  block.write('0', 156, 'ascii'); // a regular file
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** Writes a tar file, member by member. */
export class ArchiveWriter {
  private position = 0;
  private constructor(private readonly handle: FileHandle) {}

  static async create(path: string): Promise<ArchiveWriter> {
    return new ArchiveWriter(await open(path, 'wx', 0o600));
  }

  private async write(buffer: Buffer): Promise<void> {
    await this.handle.write(buffer, 0, buffer.length, this.position);
    this.position += buffer.length;
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest !== 0) await this.write(Buffer.alloc(BLOCK - rest));
  }

  async addBuffer(name: string, content: Buffer): Promise<void> {
    await this.write(header(name, content.length, Date.now()));
    await this.write(content);
    await this.pad(content.length);
  }

  async addFile(name: string, path: string): Promise<void> {
    const source = await open(path, 'r');
    try {
      const { size, mtimeMs } = await source.stat();
      await this.write(header(name, size, mtimeMs));
      const buffer = Buffer.alloc(CHUNK);
      let copied = 0;
      while (copied < size) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(CHUNK, size - copied), copied);
        if (bytesRead === 0) throw new Error(`${path} shrank while it was archived`);
        await this.write(buffer.subarray(0, bytesRead));
        copied += bytesRead;
      }
      await this.pad(size);
    } finally {
      await source.close();
    }
  }

  /** The two empty blocks that end an archive; flushed to disk. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await this.handle.sync();
    await this.handle.close();
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

export interface ArchiveMember {
  name: string;
  size: number;
  /** Where its bytes start in the archive. */
  offset: number;
}

/** The members of a tar file (regular files only); throws on a file that is not one. */
export async function readMembers(path: string): Promise<ArchiveMember[]> {
  const handle = await open(path, 'r');
  try {
    const { size: total } = await handle.stat();
    const members: ArchiveMember[] = [];
    const block = Buffer.alloc(BLOCK);
    let position = 0;
    while (position + BLOCK <= total) {
      await handle.read(block, 0, BLOCK, position);
      if (block.every((byte) => byte === 0)) return members;
      if (block.toString('ascii', 257, 262) !== 'ustar') throw new Error('not a slotbook backup (no tar header where one was expected)');
      const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const size = Number.parseInt(block.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
      members.push({ name, size, offset: position + BLOCK });
      position += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    }
    throw new Error('the backup is cut short (no end of archive): it was not written completely');
  } finally {
    await handle.close();
  }
}

/** Copies one member's bytes out to `path` (created; never over an existing file). */
export async function extractMember(archive: string, member: ArchiveMember, path: string): Promise<void> {
  const source = await open(archive, 'r');
  const target = await open(path, 'wx', 0o600);
  try {
    const buffer = Buffer.alloc(CHUNK);
    let copied = 0;
    while (copied < member.size) {
      const { bytesRead } = await source.read(buffer, 0, Math.min(CHUNK, member.size - copied), member.offset + copied);
      if (bytesRead === 0) throw new Error('the backup is cut short');
      await target.write(buffer, 0, bytesRead, copied);
      copied += bytesRead;
    }
    await target.sync();
  } finally {
    await source.close();
    await target.close();
  }
}

export async function readMember(archive: string, member: ArchiveMember): Promise<Buffer> {
  const handle = await open(archive, 'r');
  try {
    const buffer = Buffer.alloc(member.size);
    await handle.read(buffer, 0, member.size, member.offset);
    return buffer;
  } finally {
    await handle.close();
  }
}
