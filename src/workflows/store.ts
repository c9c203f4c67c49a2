import { expressionBuilder, type Expression, type Insertable, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, WorkflowTable } from '../db/schema.js';

export type WorkflowRow = Selectable<WorkflowTable>;

export async function insertWorkflow(tx: Tx, row: Omit<Insertable<WorkflowTable>, 'id'>): Promise<WorkflowRow> {
  return tx.insertInto('workflows').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listWorkflows(db: Kysely<Database>, operatorId: number): Promise<WorkflowRow[]> {
  return db.selectFrom('workflows').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute();
}

export async function findWorkflow(db: Kysely<Database>, operatorId: number, id: number): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function updateWorkflow(tx: Tx, operatorId: number, id: number, changes: Updateable<WorkflowTable>): Promise<WorkflowRow | undefined> {
  return tx.updateTable('workflows').set(changes).where('id', '=', id).where('operator_id', '=', operatorId).returningAll().executeTakeFirst();
}

/** Whether the operator has an enabled workflow, as a condition another query folds in (hooks/platform-hooks.ts). */
export function enabledWorkflowExists(operatorId: number): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb.selectFrom('workflows').select('workflows.id').where('workflows.operator_id', '=', operatorId).where('workflows.enabled', '=', 1),
  );
}

/** The operator's enabled workflows on these events: the one query a booking pays when none exist. */
export async function enabledWorkflows(db: Kysely<Database>, operatorId: number, events: WorkflowRow['event'][]): Promise<WorkflowRow[]> {
  return db
    .selectFrom('workflows')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('enabled', '=', 1)
    .where('event', 'in', events)
    .orderBy('id')
    .execute();
}

/** IDs of the operator's workflows on these events, enabled or not. */
export async function workflowIdsOn(db: Kysely<Database>, operatorId: number, events: WorkflowRow['event'][]): Promise<number[]> {
  const rows = await db.selectFrom('workflows').select('id').where('operator_id', '=', operatorId).where('event', 'in', events).execute();
  return rows.map((row) => row.id);
}
