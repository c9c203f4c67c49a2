// The runtime dependencies are exactly the packages the server imports at run time: everything else (the
// dashboard's React and Vite, tsx, the test SMTP server, type-only packages) is a devDependency, so that
// a production install carries no build tools and no code it never runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The package of every import that survives compilation (not `import type`, not only type specifiers), and of every require.resolve. */
function runtimePackages(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifier = node.moduleSpecifier;
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly) {
      specifier = node.moduleSpecifier;
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      specifier = node.arguments[0];
    } else if (
      // A package whose files are loaded by path (the photo worker's decoders): require.resolve('pngjs/...').
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.getText(source) === 'require.resolve'
    ) {
      specifier = node.arguments[0];
    }
    if (specifier && ts.isStringLiteral(specifier)) found.push(specifier.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter((name) => !name.startsWith('.') && !name.startsWith('node:'))
    .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!));
}

describe('package.json', () => {
  it('lists as dependencies exactly the packages src/ and bin/ import at run time', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set([...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))].flatMap(runtimePackages));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...imported].sort());
  });
});
