import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { CreateWorkflowBody, UpdateWorkflowBody, Workflow, WorkflowIdParams, WorkflowPreview, WorkflowPreviewBody } from './schemas.js';
import { previewWorkflow } from './preview.js';
import { changeWorkflow, createWorkflow, getWorkflow, getWorkflows } from './service.js';
import { requires } from '../access/permissions.js';

/** Operator API: automated e-mails on booking events. */
export const workflowAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: workflows'];

  app.post('/workflows', {
    config: requires('workflows:write'),
    schema: {
      tags,
      summary: 'Create a workflow',
      description:
        "An e-mail to the booking's customer on an event: booking-confirmed, booking-cancelled, booking-rescheduled (at once), reminder (OffsetHours before the start) or follow-up (OffsetHours after the end). " +
        'Each e-mail sent records one workflow-email-sent usage entry.',
      body: CreateWorkflowBody,
      response: { 201: envelope(Workflow), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const workflow = await createWorkflow(app.db, request.caller.operatorId, request.body);
      return reply.code(201).header('Location', `/api/v2/admin/workflows/${workflow.ID}`).send({ data: workflow });
    },
  });

  app.get('/workflows', {
    config: requires('workflows:read'),
    schema: { tags, summary: 'List workflows', response: { 200: envelope(Type.Array(Workflow)), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: await getWorkflows(app.db.kysely, request.caller.operatorId) }),
  });

  app.get('/workflows/:ID', {
    config: requires('workflows:read'),
    schema: {
      tags,
      summary: 'Get a workflow',
      params: WorkflowIdParams,
      response: { 200: envelope(Workflow), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await getWorkflow(app.db.kysely, request.caller.operatorId, request.params.ID) }),
  });

  app.patch('/workflows/:ID', {
    config: requires('workflows:write'),
    schema: {
      tags,
      summary: 'Change a workflow',
      description: 'Any of the fields, e.g. {"Enabled": false} to pause it. E-mails already queued keep the text they were given.',
      params: WorkflowIdParams,
      body: UpdateWorkflowBody,
      response: { 200: envelope(Workflow), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await changeWorkflow(app.db, request.caller.operatorId, request.params.ID, request.body) }),
  });

  // A POST because a draft body can be long; it reads only (no audit entry: nothing changes).
  app.post('/workflows/preview', {
    config: requires('workflows:read'),
    schema: {
      tags,
      summary: 'Preview a draft template',
      description:
        "Renders Subject and Body exactly as sending would, for BookingReference, else the operator's newest confirmed booking, else a sample booking (Sample: true). " +
        'Nothing is stored or sent. Unknown placeholders are a 422 naming the field.',
      body: WorkflowPreviewBody,
      response: { 200: envelope(WorkflowPreview), ...problems(400, ...AUTH_ERRORS, 404, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await previewWorkflow(app.db.kysely, request.caller.operatorId, request.body) }),
  });
};
