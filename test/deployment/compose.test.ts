// No container runtime or base image is reachable here, so compose.yaml and the Dockerfile are checked as
// far as they can be without one: the services and the settings that matter (docs/deployment.md). The
// Dockerfile's build steps themselves run in CI (ops/container-build-steps.sh).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const file = (name: string) => readFileSync(fileURLToPath(new URL(`../../${name}`, import.meta.url)), 'utf8');

describe('compose.yaml', () => {
  const compose = parse(file('compose.yaml'));
  const services = compose.services as Record<string, Record<string, any>>;

  it('has PostgreSQL, PgBouncer in session mode, the migration once, N slotbook processes and a load balancer', () => {
    expect(Object.keys(services).sort()).toEqual(['migrate', 'nginx', 'pgbouncer', 'postgres', 'slotbook']);
    expect(services.postgres!.image).toMatch(/^postgres:\d+/);
    expect(services.pgbouncer!.environment.POOL_MODE).toBe('session');
    expect(services.slotbook!.deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(services.slotbook!.build).toBe('.');
    expect(services.migrate!.command).toContain('migrate');
    expect(services.slotbook!.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(services.nginx!.depends_on.slotbook.condition).toBe('service_healthy');
    expect(services.nginx!.ports).toEqual(['8080:80']);
    // Only the balancer publishes a port; the processes and metrics stay on the internal network.
    expect(
      Object.entries(services)
        .filter(([, s]) => s.ports)
        .map(([name]) => name),
    ).toEqual(['nginx']);
  });

  it('gives every process the same settings: SECRET_KEY required, the database through PgBouncer, one proxy trusted', () => {
    const env = services.slotbook!.environment;
    expect(env).toEqual(services.migrate!.environment);
    expect(env.NODE_ENV).toBe('production');
    expect(env.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
    expect(new URL(env.DATABASE_URL.replace(/\$\{[^}]+\}/g, 'x')).host).toBe('pgbouncer:5432');
    expect(env.TRUST_PROXY).toBe('1');
    expect(Number(services.slotbook!.stop_grace_period.replace('s', ''))).toBeGreaterThan(10); // SHUTDOWN_TIMEOUT_SECONDS
  });

  it('balances over the processes with nginx, which never serves /metrics', () => {
    expect(services.nginx!.volumes[0]).toMatch(/^\.\/ops\/nginx\/slotbook\.conf:/);
    const conf = file('ops/nginx/slotbook.conf');
    expect(conf).toMatch(/server slotbook:3000 resolve/);
    expect(conf).toMatch(/location \/metrics \{ return 404; \}/);
    expect(conf).not.toMatch(/non_idempotent/);
  });
});

describe('Dockerfile', () => {
  const dockerfile = file('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs from node:20-slim as the user node, with a health check on /readyz', () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^node:20-slim AS build/);
    expect(stages[0]).toMatch(/RUN npm ci/);
    expect(stages[0]).toMatch(/npm run build/);
    expect(stages[0]).toMatch(/npm prune --omit=dev/);
    expect(stages[1]).toMatch(/^node:20-slim\n/);
    expect(stages[1]).toMatch(/^USER node$/m);
    expect(stages[1]).toMatch(/^HEALTHCHECK [^\n]*\n?.*\/readyz/m);
    expect(stages[1]).not.toMatch(/npm ci|g\+\+/);
    expect(stages[1]).toMatch(/postgresql-client/); // pg_dump for backups
  });
});
