// The house's one rule, kept by a test: every import points down a layer or sideways within one, and no
// files or folders import each other in a circle. The layers are declared here, once, lowest first, and
// drawn in docs/architecture.md. Inside a folder, its sub-folders keep one direction between them too.
// Imports are read with TypeScript's parser, as in dependencies.test.ts; `import type` counts too, since a
// type that climbs a layer ties the lower one to the higher just the same.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** src/: a unit is a top-level folder, or a file directly in src/. */
export const SERVER_LAYERS: readonly (readonly string[])[] = [
  /* kernel       */ ['config.ts', 'calendar', 'lib'],
  /* platform     */ ['db', 'http', 'secrets', 'access', 'events', 'hooks'],
  /* shared       */ ['audit', 'idempotency', 'auth', 'usage'],
  /* domains      */ [
    'catalog',
    'questions',
    'availability',
    'emails',
    'bookings',
    'staff',
    'workflows',
    'payments',
    'shop',
    'operators',
    'settings',
    'waitlists',
  ],
  /* reactions    */ ['webhooks', 'reports', 'manifests', 'holds', 'notices', 'marketplace-push', 'guests'],
  /* flows        */ ['flows'],
  /* channels     */ ['octo', 'getyourguide', 'viator', 'storefront', 'embed', 'dashboard'],
  /* composition  */ ['app.ts', 'reactions.ts', 'server.ts', 'cli.ts', 'demo', 'observability', 'backups'],
];

/** web/src/: the dashboard (React) and the booking pages (book/, their own script). */
export const WEB_LAYERS: readonly (readonly string[])[] = [
  /* the API's types, generated */ ['api-types'],
  /* talking to the API, formats */ [
    'api.ts',
    'format.ts',
    'csv.ts',
    'download.ts',
    'webhooks.ts',
    'getyourguide.ts',
    'viator.ts',
    'manifests.ts',
    'book',
  ],
  /* state shared by pages */ ['router.tsx', 'session.tsx', 'activities.tsx'],
  /* components */ ['ui'],
  /* pages */ ['pages'],
  /* the app */ ['main.tsx'],
];

interface Graph {
  files: Map<string, string[]>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in source; web imports omit the extension). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function buildGraph(dir: string): Graph {
  const files = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const targets = importedSpecifiers(file).flatMap((specifier) => {
      const target = resolveImport(file, specifier);
      return target?.startsWith(dir) ? [target] : [];
    });
    files.set(relative(ROOT, file), [...new Set(targets.map((target) => relative(ROOT, target)))]);
  }
  return { files };
}

/** The unit of a file: its top-level folder under `root` (or the file itself when it sits in `root`). */
function unitOf(root: string, file: string): string {
  return relative(root, file).split('/')[0]!;
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
export function cycles(edges: Map<string, Iterable<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) connect(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

interface Findings {
  climbs: string[];
  fileCycles: string[];
  folderCycles: string[];
  subfolderCycles: string[];
  unplaced: string[];
  /** Which units each unit imports. */
  folders: Map<string, Set<string>>;
  graph: Graph;
}

/**
 * Inside every folder, its sub-folders (and its files) must not import each other in a circle either: a
 * folder split into sub-folders (webhooks/endpoints and webhooks/deliveries) keeps one direction between them.
 */
function subfolderCycles(root: string, graph: Graph): string[] {
  const byFolder = new Map<string, Map<string, Set<string>>>();
  for (const [file, targets] of graph.files) {
    const from = relative(root, join(ROOT, file)).split('/');
    for (const target of targets) {
      const to = relative(root, join(ROOT, target)).split('/');
      // Every folder holding both files, below the top level (checked above): their children there must not circle.
      for (let depth = 1; depth < Math.min(from.length, to.length) && from[depth - 1] === to[depth - 1]; depth++) {
        if (from[depth] === to[depth]) continue;
        const folder = from.slice(0, depth).join('/');
        const edges = byFolder.get(folder) ?? byFolder.set(folder, new Map()).get(folder)!;
        if (!edges.has(from[depth]!)) edges.set(from[depth]!, new Set());
        edges.get(from[depth]!)!.add(to[depth]!);
        break;
      }
    }
  }
  // A circle of files alone is a file cycle, reported as such.
  const isFile = (unit: string) => /\.tsx?$/.test(unit);
  return [...byFolder].flatMap(([folder, edges]) =>
    cycles(edges)
      .filter((cycle) => !cycle.every(isFile))
      .map((cycle) => `folder cycle: ${relative(ROOT, join(root, folder))}/{${cycle.join(',')}}`),
  );
}

function check(rootRelative: string, layers: readonly (readonly string[])[]): Findings {
  const root = join(ROOT, rootRelative);
  const graph = buildGraph(root);
  const layerOf = new Map(layers.flatMap((units, level) => units.map((unit) => [unit, level] as const)));
  const climbs: string[] = [];
  const unplaced = new Set<string>();
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph.files) {
    const from = unitOf(root, join(ROOT, file));
    if (!layerOf.has(from)) unplaced.add(from);
    for (const target of targets) {
      const to = unitOf(root, join(ROOT, target));
      if (from === to) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)!.add(to);
      if ((layerOf.get(to) ?? -1) > (layerOf.get(from) ?? Infinity)) climbs.push(`climb: ${file} -> ${target}`);
    }
  }
  return {
    climbs,
    fileCycles: cycles(graph.files).map((cycle) => `file cycle: ${cycle.join(' ')}`),
    folderCycles: cycles(folders).map((cycle) => `folder cycle: ${rootRelative}/{${cycle.join(',')}}`),
    subfolderCycles: subfolderCycles(root, graph),
    unplaced: [...unplaced].map((unit) => `not in a layer: ${rootRelative}/${unit}`),
    folders,
    graph,
  };
}

function violations(): string[] {
  const server = check('src', SERVER_LAYERS);
  const web = check('web/src', WEB_LAYERS);
  return [server, web]
    .flatMap((found) => [...found.unplaced, ...found.climbs, ...found.fileCycles, ...found.folderCycles, ...found.subfolderCycles])
    .sort();
}

describe('the layers', () => {
  const found = violations();

  it('places every folder and file of src/ and web/src/ in a layer', () => {
    expect(found.filter((line) => line.startsWith('not in a layer'))).toEqual([]);
  });

  it('has no import that climbs a layer and no cycle between files or folders', () => {
    expect(found.filter((line) => !line.startsWith('not in a layer'))).toEqual([]);
  });

  it('finds a cycle and a climb when there is one (the checks can fail)', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    const files = new Map([
      ['src/x/a/f.ts', ['src/x/b/g.ts']],
      ['src/x/b/g.ts', ['src/x/a/h.ts']],
      ['src/x/a/h.ts', []],
    ]);
    expect(subfolderCycles(join(ROOT, 'src'), { files })).toEqual(['folder cycle: src/x/{a,b}']);
  });
});

/**
 * SQL lives in stores: outside src/db/ (the database layer itself), only a `store.ts` (or a `*-store.ts` beside
 * it) builds a query. Kysely's builders and `sql` templates are found with the parser, so a comment or a
 * string that mentions them does not count.
 */
const QUERY_BUILDERS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const SQL_OUTSIDE_STORES_ALLOWED: Record<string, string> = {
  // The seat ledger is availability's second store: on PostgreSQL releasing lapsed holds and taking seats is
  // one statement over timeslots and bookings, the capacity invariant itself (docs/concurrency.md).
  'src/bookings/lifecycle/seat-ledger.ts': 'the seat ledger',
};

export function buildsQueries(file: string, text = readFileSync(file, 'utf8')): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let found = false;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && QUERY_BUILDERS.has(node.expression.name.text)) found = true;
    else if (ts.isTaggedTemplateExpression(node) && /^sql\b/.test(node.tag.getText(source))) found = true;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('SQL lives in stores', () => {
  it('builds queries only in store.ts files (and src/db/)', () => {
    const outside = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => !file.startsWith('src/db/') && !/(^|\/|-)store\.ts$/.test(file) && !(file in SQL_OUTSIDE_STORES_ALLOWED))
      .filter((file) => buildsQueries(join(ROOT, file)));
    expect(outside).toEqual([]);
  });

  it('finds a query builder and a sql template, and not a mention in a comment (the check can fail)', () => {
    expect(buildsQueries('a.ts', "await tx.selectFrom('bookings').selectAll().execute();")).toBe(true);
    expect(buildsQueries('a.ts', 'const x = sql<number>`1`;')).toBe(true);
    expect(buildsQueries('a.ts', '// tx.selectFrom(...) and sql`...` are for stores\nconst s = "selectFrom";')).toBe(false);
  });
});

/** The longest chain of units from `start` down their imports (the folder graph has no cycle: checked above). */
export function longestChain(edges: Map<string, Iterable<string>>, start: string): string[] {
  const memo = new Map<string, string[]>();
  const walk = (node: string): string[] => {
    const known = memo.get(node);
    if (known) return known;
    let best: string[] = [];
    for (const next of edges.get(node) ?? []) {
      const chain = walk(next);
      if (chain.length > best.length) best = chain;
    }
    const chain = [node, ...best];
    memo.set(node, chain);
    return chain;
  };
  return walk(start);
}

/** Imports of another top-level folder's store file (`store.ts`, `*-store.ts`, in any sub-folder): a folder shows its face instead. */
export function storeReachIns(graph: Graph, root = 'src'): string[] {
  const top = (file: string) => relative(join(ROOT, root), join(ROOT, file)).split('/')[0];
  return [...graph.files].flatMap(([file, targets]) =>
    targets.filter((target) => top(target) !== top(file) && /(^|\/|-)store\.ts$/.test(target)).map((target) => `${file} -> ${target}`),
  );
}

/** Writes of a booking's status (or its hold's expiry) in a file's text: Kysely's update of bookings or raw SQL. */
export function writesBookingStatus(text: string): boolean {
  return (
    /updateTable\(\s*'bookings'\s*\)[^;]*?\.set\(\s*\{[^}]*\b(status|hold_expires_at)\s*:/s.test(text) ||
    /insertInto\(\s*'bookings'\s*\)/.test(text) ||
    /UPDATE\s+bookings\s+SET[^;`]*\b(status|hold_expires_at)\b/i.test(text)
  );
}

/** The only files that write a booking's status: the lifecycle's store and the seat ledger (lapsed holds, in one statement with the seats). */
const STATUS_WRITERS = ['src/bookings/lifecycle/store.ts', 'src/bookings/lifecycle/seat-ledger.ts'];

describe('the spine', () => {
  const server = check('src', SERVER_LAYERS);

  it("has every folder show a face: no file imports another folder's store files", () => {
    expect(storeReachIns(server.graph)).toEqual([]);
  });

  it("writes a booking's status only in the lifecycle (bookings/lifecycle/store.ts and the seat ledger)", () => {
    const writers = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file))
      .filter((file) => writesBookingStatus(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers.sort()).toEqual([...STATUS_WRITERS].sort());
  });

  it('runs flows from the channels and the composition only: no domain imports a flow', () => {
    const flowsLevel = SERVER_LAYERS.findIndex((units) => units.includes('flows'));
    const below = new Set(SERVER_LAYERS.slice(0, flowsLevel).flat());
    const importers = [...server.folders].filter(([unit, targets]) => below.has(unit) && targets.has('flows')).map(([unit]) => unit);
    expect(importers).toEqual([]);
  });

  // The chain was 17 deep before the spine and is 12 now: the command line builds the app and starts the
  // telemetry itself (server.ts only listens), money lives in payments/ and its use cases in flows/, so the
  // shop, the e-mails and the workflows no longer stand on each other. Never raise it.
  const MAX_CHAIN = 12;
  it(`keeps the chain of folders from cli.ts down at most ${MAX_CHAIN} deep`, () => {
    const chain = longestChain(server.folders, 'cli.ts');
    expect(chain.length, chain.join(' -> ')).toBeLessThanOrEqual(MAX_CHAIN);
  });

  it('finds a reach-in, a status write and a long chain when there is one (the checks can fail)', () => {
    const files = new Map([['src/octo/a.ts', ['src/bookings/store.ts', 'src/bookings/index.ts', 'src/octo/store.ts']]]);
    expect(storeReachIns({ files })).toEqual(['src/octo/a.ts -> src/bookings/store.ts']);
    expect(writesBookingStatus("await tx.updateTable('bookings').set({ status: 'cancelled' }).execute();")).toBe(true);
    expect(writesBookingStatus("await tx.updateTable('bookings').set({ waiver_status: 'complete' }).execute();")).toBe(false);
    expect(writesBookingStatus("sql`UPDATE bookings SET status = 'expired' WHERE id = 1`")).toBe(true);
    const edges = new Map([
      ['a', ['b', 'c']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(longestChain(edges, 'a')).toEqual(['a', 'b', 'c']);
  });
});
