// Operator API: a booking's waiver answers, and the files they name, for staff to look at safely.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { requires } from '../access/permissions.js';
import { ReferenceParams } from '../http/schemas.js';
import { BookingWaiverAnswer, FileIdParams } from '../questions/schemas.js';
import { ALLOWED_FILE_TYPES, servedType } from '../questions/file-types.js';
import type { UploadRow } from '../questions/index.js';
import { findAnswerFile, listBookingAnswers } from './answers.js';
import type { FastifyReply } from 'fastify';

/**
 * An uploaded file is the guest's (or a partner's) content, not ours: the browser must save it, never
 * render it in our origin. So it is an attachment, its type is the one its bytes were recognised as (no
 * sniffing), and should a browser render it anyway, the sandbox gives it no origin, no scripts, no
 * requests.
 */
const FILE_CSP = "default-src 'none'; sandbox";

/** Sends a waiver answer's file the safe way (above); the manifest's file route uses it too. */
export function sendAnsweredFile(
  reply: FastifyReply,
  reference: string,
  file: Pick<UploadRow, 'content_type' | 'content' | 'public_id'>,
): FastifyReply {
  const type = servedType(file.content_type);
  const extension = ALLOWED_FILE_TYPES[type] ?? 'bin';
  return reply
    .type(type)
    .header('Content-Disposition', `attachment; filename="${reference}-${file.public_id}.${extension}"`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', FILE_CSP)
    .header('Cache-Control', 'no-store')
    .send(Buffer.from(file.content));
}

export const answerAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: bookings'];

  app.get('/bookings/:BookingReference/waiver-answers', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: "Get a booking's waiver answers",
      description: "Each answer with its question, by the questions' Position; a file answer with the file's type, size and Download address.",
      params: ReferenceParams,
      response: { 200: envelope(Type.Array(BookingWaiverAnswer)), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await listBookingAnswers(app.db.kysely, request.caller.operatorId, request.params.BookingReference) }),
  });

  app.get('/bookings/:BookingReference/files/:FileID', {
    config: requires('bookings:read'),
    schema: {
      tags,
      summary: 'Download the file of a waiver answer',
      description:
        'The file a waiver answer of this booking names (404 for any other), as an attachment: Content-Disposition: attachment, ' +
        "X-Content-Type-Options: nosniff, Content-Security-Policy: default-src 'none'; sandbox, Cache-Control: no-store.",
      params: Type.Composite([ReferenceParams, FileIdParams]),
      produces: [...Object.keys(ALLOWED_FILE_TYPES), 'application/octet-stream'],
      response: {
        200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: "The file's bytes" }),
        ...problems(400, ...AUTH_ERRORS, 404),
      },
    },
    handler: async (request, reply) => {
      const { BookingReference, FileID } = request.params;
      const file = await findAnswerFile(app.db.kysely, request.caller.operatorId, BookingReference, FileID);
      return sendAnsweredFile(reply, BookingReference, file);
    },
  });
};
