/**
 * What a response says in the clear beside a secret it issues: Unleash answers a client token
 * `team-42:staging-eu.<hash>` with `"project": "team-42", "environment": "staging-eu"`. Those
 * texts, and the constants the flow itself sent in the clear, are evidence that the parts of the
 * token they cover are no secret: the token is registered with them as its shown texts, so it is
 * masked whole, but its pieces come from the rest (see `unguessable.ts`), and a flow that writes
 * `team-42:staging-eu` in a URL keeps it readable.
 *
 * @module
 */
import { isSecretKey } from "./names.ts";
import { MIN_SECRET_LENGTH } from "./secret_index.ts";
import { mayLeadWithWords } from "./unguessable.ts";

/** Receives each value found to be secret, and the texts inside it that are not. */
type Register = (value: string, shown?: readonly string[]) => void;

/**
 * How many values of a document are read: a large one is not walked whole (an id a token is
 * made of stands near it), and a response that sets a cookie costs a bounded walk.
 */
const BUDGET = 10_000;
/** Longest clear text kept: ids and names, not documents. */
const LONGEST = 256;

/**
 * The strings and numbers of a parsed JSON document that no secret-looking key holds, at any
 * depth, of four to 256 characters (of its first 10,000 values).
 *
 * @example
 * ```ts
 * import { clearLeaves } from "./clear_texts.ts";
 * const answer = { secret: "team-42:eu.4f1c2e9a", project: "team-42", projects: ["team-42"], n: 12345 };
 * if ([...clearLeaves(answer)].join() !== "12345,team-42") throw new Error([...clearLeaves(answer)].join());
 * ```
 */
export function clearLeaves(document: unknown): Set<string> {
  const found = new Set<string>();
  const stack = [document];
  for (let budget = BUDGET; stack.length > 0 && budget > 0; budget--) {
    const v = stack.pop();
    const text = typeof v === "number" && Number.isFinite(v) ? String(v) : v;
    if (typeof text === "string") {
      if (text.length <= LONGEST && text.trim().length >= MIN_SECRET_LENGTH) found.add(text);
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) if (!isSecretKey(key)) stack.push(item);
    }
  }
  return found;
}

const ALNUM = /[A-Za-z0-9]/;

/**
 * Whether `text` stands in `value` as whole segments, not inside a run of letters and digits:
 * `team-42` in `team-42:eu.<hash>`, not a count `1234` a hash holds by chance.
 */
function standsApart(value: string, text: string): boolean {
  if (text.length < MIN_SECRET_LENGTH || text.length >= value.length) return false;
  for (let at = value.indexOf(text); at !== -1; at = value.indexOf(text, at + 1)) {
    const end = at + text.length;
    const before = ALNUM.test(value[at - 1] ?? "") && ALNUM.test(text[0]);
    const after = ALNUM.test(value[end] ?? "") && ALNUM.test(text[text.length - 1]);
    if (!before && !after) return true;
  }
  return false;
}

/**
 * `register` with the clear texts (`clear()`, read once and only when a secret is found) that
 * stand apart inside each value (whole segments) as its shown texts, unless it came with its own.
 *
 * @example
 * ```ts
 * import { withClearTexts } from "./clear_texts.ts";
 * const got: string[][] = [];
 * const register = withClearTexts((_v, shown) => void got.push([...shown ?? []]), () => new Set(["team-42", "eu", "8e7d"]));
 * register("team-42:eu.4f1c2e9a");
 * register("9f8e7d6c");
 * if (JSON.stringify(got) !== '[["team-42"],[]]') throw new Error(JSON.stringify(got));
 * ```
 */
export function withClearTexts(register: Register, clear: () => ReadonlySet<string>): Register {
  let texts: ReadonlySet<string> | undefined;
  return (value, shown) => {
    // Only a value words may lead (see `unguessable.ts`) is worth reading the document for.
    if (shown !== undefined || !mayLeadWithWords(value)) return register(value, shown);
    texts ??= clear();
    const inside: string[] = [];
    for (const text of texts) if (standsApart(value, text)) inside.push(text);
    register(value, inside.length > 0 ? inside : undefined);
  };
}
