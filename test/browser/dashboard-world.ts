// The world the dashboard's browser tests start from: the built dashboard, a fresh database migrated by
// `slotbook migrate`, a real `slotbook serve` process on it, one operator made by `slotbook operator create
// --email` (its admin key and its owner's one-time sign-in link), the operator API at hand with the admin
// key, and Chromium, signed in as the owner through that link once the test has written its data.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { ensureDashboardBuilt, launchBrowser, signInWithOwnerLink, type Browser } from './browser.js';

/** What `slotbook operator create --email` prints. */
export interface CreatedOperator {
  OperatorID: number;
  AdminKey: string;
  SignInLink: string;
}

export interface DashboardWorldOptions {
  /** The operator's name (operator create --name). */
  operator: string;
  /** Its owner's e-mail address (operator create --email). */
  owner: string;
  /** More environment for the server process, whose LOG_LEVEL is warn. */
  serverEnv?: Record<string, string>;
}

export interface BrowserOptions {
  /** Signs in through the owner's link, setting this password, and waits for the bookings page; else the page is blank. */
  ownerPassword?: string;
  /** The page's default timeout (ms). */
  timeout?: number;
}

export interface DashboardWorld {
  database: TestDatabase;
  server: ServerProcess;
  operator: CreatedOperator;
  /** The operator's admin key. */
  admin: string;
  /** Calls the API with the admin key (or `key`): the answer's status and its envelope's data. */
  call<T = unknown>(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; data: T }>;
  /** The same, failing unless the answer is 2xx: its data. */
  api<T = unknown>(method: string, path: string, body?: unknown, key?: string): Promise<T>;
  /** Launches Chromium (once, after the test's data is written) and answers its page. */
  openBrowser(options?: BrowserOptions): Promise<Page>;
  /** Closes the browser, stops the server and drops the database. */
  close(): Promise<void>;
}

export async function startDashboardWorld({ operator: name, owner, serverEnv = {} }: DashboardWorldOptions): Promise<DashboardWorld> {
  ensureDashboardBuilt();
  const database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  let server: ServerProcess | undefined;
  let operator: CreatedOperator;
  try {
    expect((await runCli(['migrate'], env)).code).toBe(0);
    server = await startServerProcess(database.url, { LOG_LEVEL: 'warn', ...serverEnv });
    // The owner's link points at PUBLIC_URL; the browser reaches this server at its own address.
    operator = JSON.parse(
      (await runCli(['operator', 'create', '--name', name, '--email', owner], { ...env, PUBLIC_URL: server.url })).stdout,
    ) as CreatedOperator;
  } catch (error) {
    await server?.stop();
    await database.drop();
    throw error;
  }
  const started = server;
  const admin = operator.AdminKey;
  let browser: Browser | undefined;

  async function send(method: string, path: string, body: unknown, key: string): Promise<{ status: number; text: string }> {
    const response = await fetch(started.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }
  const dataOf = <T>(text: string) => (text ? JSON.parse(text).data : undefined) as T;

  return {
    database,
    server: started,
    operator,
    admin,
    async call<T>(method: string, path: string, body?: unknown, key = admin) {
      const { status, text } = await send(method, path, body, key);
      return { status, data: dataOf<T>(text) };
    },
    async api<T>(method: string, path: string, body?: unknown, key = admin) {
      const { status, text } = await send(method, path, body, key);
      if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${text}`);
      return dataOf<T>(text);
    },
    async openBrowser({ ownerPassword, timeout = 10_000 } = {}) {
      browser = await launchBrowser();
      browser.page.setDefaultTimeout(timeout);
      if (ownerPassword !== undefined) await signInWithOwnerLink(browser.page, operator.SignInLink, ownerPassword);
      return browser.page;
    },
    async close() {
      await browser?.close();
      await started.stop();
      await database.drop();
    },
  };
}
