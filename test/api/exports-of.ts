/**
 * The names a module's `export { ... } from` statements list (the curated entry points name every
 * export one by one), read from its source with the TypeScript parser: `type X` for a type-only name.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export function listedExports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${file}: 'export *' is not allowed in a curated entry point`);
    for (const e of clause.elements) names.push(statement.isTypeOnly || e.isTypeOnly ? `type ${e.name.text}` : e.name.text);
  }
  return names;
}

/** Sorted by name, case-insensitively, whatever the `type ` prefix. */
export function byName(names: readonly string[]): string[] {
  const key = (n: string) => n.replace(/^type /, '').toLowerCase();
  return [...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a < b ? -1 : 1));
}
