// The `slotbook` command: serve, migrate, operator create, key create, seed --demo, backup, restore.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Db } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { insertOperator, operatorExists, type NewOperator } from './operators/service.js';
import { createOwner } from './staff/accounts/service.js';
import { createApiKey } from './auth/service.js';
import { loadInstanceKeys } from './secrets/keys.js';
import { DomainError } from './http/errors.js';
import { seedDemo } from './demo/seed.js';
import { demoOnFirstStart } from './demo/first-start.js';
import { startServer } from './server.js';
import { buildApp } from './app.js';
import { startTelemetry } from './observability/telemetry.js';
import { wireReactions } from './reactions.js';
import { backup, BackupError, restore } from './backups/service.js';

const USAGE = `Usage: slotbook <command>

  serve                                  start the HTTP service (migrates first)
  migrate                                apply pending database migrations
  operator create --name NAME [--email OWNER]
                                         create an operator (and its owner's account); prints
                                         {"OperatorID", "AdminKey", "OwnerEmail", "SignInLink"}
  key create --operator ID --name NAME --scopes ota,usage:read,usage:write,admin [--partner MARKETPLACE]
                                         create an API key; prints it (shown only once)
  seed --demo                            create the demo operator with sample data; prints its keys
  backup FILE                            write a backup of the database (uploads and photos are in it) and
                                         DATA_DIR to FILE, a new tar file, while the service runs; prints
                                         what it holds (docs/backups.md)
  restore FILE [--force]                 restore a backup into DATABASE_URL and DATA_DIR (an empty database,
                                         or --force to replace one; stop the service first), then migrate

Configuration comes from the environment: PORT, HOST, DATABASE_URL, PUBLIC_URL, PROBLEM_BASE_URL,
LOG_LEVEL, SMTP_URL, EMAIL_FROM, RATE_LIMIT_PER_MINUTE, AUTH_FAILURE_LIMIT_PER_MINUTE, TRUST_PROXY,
REQUEST_TIMEOUT_SECONDS, SHUTDOWN_TIMEOUT_SECONDS, BASKET_HOLD_MINUTES, WAITLIST_CLAIM_MINUTES,
SECRET_KEY, DATA_DIR, UPLOAD_* (quotas and lifetime of uploads), GUEST_RETENTION_DAYS, NODE_ENV (see README.md).
`;

class UsageError extends Error {}

async function withDatabase<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(config.database);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      operator: { type: 'string' },
      scopes: { type: 'string' },
      partner: { type: 'string' },
      email: { type: 'string' },
      demo: { type: 'boolean' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  // backup and restore take a file name after them.
  const command = positionals[0] === 'backup' || positionals[0] === 'restore' ? positionals[0] : positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  // Every command that changes data reacts to it as the server would (seed --demo places bookings).
  wireReactions();
  switch (command) {
    case 'serve':
      return startServer(config, {
        // Metrics and traces, when configured: they see the database's statements and the app's requests.
        telemetry: await startTelemetry(config),
        build: (db, instrument) => buildApp({ db, config, instrument }),
        beforeListening: (db, log) => demoOnFirstStart(db, config, log),
      });
    case 'migrate': {
      const db = openDatabase(config.database);
      try {
        const applied = await migrate(db);
        process.stderr.write(applied.length > 0 ? `applied ${applied.join(', ')}\n` : 'the database is up to date\n');
      } finally {
        await db.close();
      }
      return;
    }
    case 'operator create': {
      if (!values.name?.trim()) throw new UsageError('operator create needs --name NAME');
      const email = values.email?.trim();
      if (email !== undefined && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email))
        throw new UsageError(`--email must be an e-mail address; got "${email}"`);
      const created = await withDatabase(config, async (db) => {
        const mailing = { config, instanceKeys: await loadInstanceKeys(db.kysely, config.secretKey) };
        // The operator, its first admin key and (with --email) its owner's account: together or not at all.
        return db.write(async (tx): Promise<NewOperator & { owner?: { email: string; signInLink: string } }> => {
          const operator = await insertOperator(tx, values.name!.trim());
          if (email === undefined) return operator;
          const { user, link } = await createOwner(tx, operator.operatorId, email, { mailing });
          return { ...operator, owner: { email: user.email, signInLink: link! } };
        });
      });
      if (!created.owner) process.stderr.write('slotbook: no --email given, so the operator has no owner yet: the dashboard needs one to sign in\n');
      return print({
        OperatorID: created.operatorId,
        AdminKey: created.adminKey,
        ...(created.owner && { OwnerEmail: created.owner.email, SignInLink: created.owner.signInLink }),
      });
    }
    case 'key create': {
      const operatorId = Number(values.operator);
      if (!Number.isInteger(operatorId) || operatorId < 1) throw new UsageError('key create needs --operator ID (a number)');
      if (!values.name || !values.scopes) throw new UsageError('key create needs --name NAME and --scopes LIST');
      const created = await withDatabase(config, async (db) => {
        if (!(await operatorExists(db.kysely, operatorId))) throw new UsageError(`no operator ${operatorId}`);
        return db.write((tx) =>
          createApiKey(tx, operatorId, { name: values.name!, scopes: values.scopes!.split(','), partner: values.partner ?? null }),
        );
      });
      return print({
        ID: created.record.id,
        Key: created.key,
        Name: created.record.name,
        Scopes: created.record.scopes,
        Partner: created.record.partner,
      });
    }
    case 'seed': {
      if (!values.demo) throw new UsageError('seed needs --demo');
      const demo = await withDatabase(config, (db) => seedDemo(db));
      process.stdout.write(demo.announcement(config.publicUrl));
      return;
    }
    case 'backup': {
      if (positionals.length !== 2) throw new UsageError('backup needs one FILE to write');
      const made = await backup(config, positionals[1]!);
      process.stderr.write(
        `slotbook: wrote ${positionals[1]} (${made.Bytes} bytes, ${made.Dialect}, ${made.Migrations.length} migrations, ${made.Files.length} data files)\n`,
      );
      return print(made);
    }
    case 'restore': {
      if (positionals.length !== 2) throw new UsageError('restore needs the backup FILE to read');
      const restored = await restore(config, positionals[1]!, { force: values.force === true });
      process.stderr.write(`slotbook: restored ${positionals[1]} made ${restored.CreatedAt}: ${JSON.stringify(restored.Counts)}\n`);
      return print(restored);
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`slotbook: invalid configuration: ${error.message}\n`);
  } else if (error instanceof BackupError) {
    process.stderr.write(`slotbook: ${error.message}\n`);
  } else if (error instanceof UsageError) {
    process.stderr.write(`slotbook: ${error.message}\n\n${USAGE}`);
  } else if (error instanceof DomainError) {
    const fields = error.errors?.map((e) => e.message).join('; ');
    process.stderr.write(`slotbook: ${fields || error.message}\n`);
  } else {
    process.stderr.write(`slotbook: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
