// A small MIME reader for the tests: a received message (test/emails/smtp.ts) into its headers and parts,
// multipart bodies split at their boundaries, quoted-printable and base64 decoded. Enough for what
// nodemailer writes; not a general parser.

export interface MimePart {
  headers: Record<string, string>;
  /** The content type without parameters, lower case: "text/plain", "multipart/mixed", ... */
  type: string;
  params: Record<string, string>;
  /** Decoded bytes (leaf parts). */
  content: Buffer;
  parts: MimePart[];
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function parseParams(value: string): { type: string; params: Record<string, string> } {
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq > 0)
      params[param.slice(0, eq).trim().toLowerCase()] = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return { type: (type ?? '').trim().toLowerCase(), params };
}

function decode(encoding: string | undefined, body: string): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'utf8');
  }
}

export function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(split === -1 ? raw : raw.slice(0, split));
  const body = split === -1 ? '' : raw.slice(split + 4);
  const { type, params } = parseParams(headers['content-type'] ?? 'text/plain');
  if (type.startsWith('multipart/') && params.boundary) {
    const chunks = body.split(`--${params.boundary}`);
    // The first chunk is the preamble, the last the epilogue after "--boundary--".
    const parts = chunks
      .slice(1)
      .filter((chunk) => !chunk.startsWith('--'))
      .map((chunk) => parseMime(chunk.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    return { headers, type, params, content: Buffer.alloc(0), parts };
  }
  return { headers, type, params, content: decode(headers['content-transfer-encoding'], body), parts: [] };
}

/** Every leaf part, depth first. */
export function leaves(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leaves);
}

/** The first leaf of this type. */
export function partOf(message: MimePart, type: string): MimePart | undefined {
  return leaves(message).find((part) => part.type === type);
}
