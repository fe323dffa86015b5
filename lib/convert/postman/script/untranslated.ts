/**
 * The lines a comment beside a step shows of the statements translate.ts
 * left untranslated: each statement's source lines, after (once) the
 * declarations of the names it reads, so the comment says what `items` was;
 * a loop's untranslated body under the loop's first line. And how many
 * assertions a piece of source holds, for the count of those not translated.
 *
 * @module
 */
import type { Node } from "./parse.ts";

/**
 * The untranslated lines of one script, kept in `lines` (the translation's
 * own list), and the statements that declared the script's names.
 *
 * @example
 * ```ts
 * import { Untranslated } from "./untranslated.ts";
 * import { parseScript } from "./parse.ts";
 * const source = "var items = json.items;\nfoo(items);";
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const lines: string[] = [];
 * const u = new Untranslated(source, lines);
 * u.declare("items", p.program.body[0]);
 * u.add(p.program.body[1]);
 * u.add(p.program.body[1]);
 * if (lines.join("|") !== "var items = json.items;|foo(items);|foo(items);") {
 *   throw new Error(lines.join("|"));
 * }
 * ```
 */
export class Untranslated {
  /** The statement that declared (or last assigned) each of the script's own names. */
  readonly #declared = new Map<string, Node>();
  /** Declarations already shown, by the index of their first untranslated line. */
  #shown = new Map<Node, number>();

  constructor(readonly source: string, readonly lines: string[]) {}

  /** `node` declares (or assigns) `name`, the script's own. */
  declare(name: string, node: Node): void {
    this.#declared.set(name, node);
  }

  /**
   * A statement's source lines, for a comment; the declarations of the names
   * it reads come first (once), so the comment says what `items` was.
   */
  add(node: Node): void {
    this.declarations(node);
    const text = this.source.slice(node.start, node.end);
    this.lines.push(...text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ""));
  }

  /** The lines of the declarations `node` reads that no comment has shown yet. */
  declarations(node: Node): void {
    for (const name of referenced(node)) {
      const declaration = this.#declared.get(name);
      const inside = declaration && declaration.start >= node.start && declaration.end <= node.end;
      if (!declaration || inside || this.#shown.has(declaration)) continue;
      this.#shown.set(declaration, this.lines.length);
      this.add(declaration);
    }
  }

  /** Drops the untranslated lines from `length` on (a block read again as a whole). */
  truncate(length: number): void {
    this.lines.length = length;
    this.#shown = new Map([...this.#shown].filter(([, at]) => at < length));
  }

  /**
   * The lines from `from` on, left as comments by the body of the loop
   * `node` over `list`: under the loop's first line, which says what `p` is.
   */
  underLoop(node: Node, list: Node, from: number): void {
    if (this.lines.length <= from) return;
    const body = this.lines.splice(from);
    this.declarations(list);
    const [head, ...rest] = this.source.slice(node.start, node.end).split(/\r?\n/);
    // A loop on one line is shown whole, once.
    if (rest.length === 0) this.lines.push(head.trim());
    else this.lines.push(`${head.trim()} …`, ...body);
  }
}

/**
 * The names a statement reads (not property names, not object keys), found
 * without recursion however deep the statement nests.
 */
function referenced(node: Node): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "Identifier") {
      names.add(n.name);
      continue;
    }
    for (const [key, child] of Object.entries(n)) {
      if ((key === "property" && !n.computed) || (key === "key" && !n.computed)) continue;
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return names;
}

/**
 * How many assertions a piece of source holds: `tests[…] =`, `pm.expect(`,
 * `pm.response.to`.
 *
 * @example
 * ```ts
 * import { countAssertions } from "./untranslated.ts";
 * const n = countAssertions("tests['a'] = x === 1;\nif (tests['a'] == y) pm.expect(z).to.be.ok;");
 * if (n !== 2) throw new Error(String(n));
 * ```
 */
export function countAssertions(text: string): number {
  return (text.match(/\btests\s*\[[^\]]*\]\s*=(?!=)|\bpm\.expect\s*\(|\bpm\.response\.to\b/g) ?? [])
    .length;
}
