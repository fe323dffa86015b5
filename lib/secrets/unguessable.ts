/**
 * A secret's unguessable part. Issued tokens are often words joined to a random run: Unleash's
 * client token is `<project>:<environment>.<hash>` (`default:development.4f1c…`). The words are
 * the API's data, which flows and servers write in the clear all over a run; the run is what a
 * guesser cannot try. The token is masked whole wherever it stands, but the pieces masked on
 * their own (any 16 characters, a beginning cut short by `…`) are the run's and its edges':
 * pieces of the words masked `default:development` in every URL, body and step name of the run,
 * and `defa…` wherever a text was cut there.
 *
 * By what the value is, not what it is called: only where the rest holds a long random run, and
 * the words are joined to it by a character base64 never holds (a random token's letters before
 * a `-` or `/` are its own). A passphrase made of words keeps every piece.
 *
 * @module
 */
import { isOrdinaryWord, notSecretSpans, secretStretches } from "./public_parts.ts";
import { MIN_SECRET_LENGTH, PIECE, type Span } from "./secret_index.ts";

/** Letters and digits, or the characters between them. */
const SEGMENT = /[A-Za-z0-9]+|[^A-Za-z0-9]+/g;
/** A character no base64 alphabet holds: what may join words to a random run. */
const JOINER = /[^A-Za-z0-9+/=_-]/;

/**
 * Longest value looked into: tokens and keys (a PEM key is about 3,000 characters). A longer
 * secret (a captured document) keeps every piece, and its registration stays one pass.
 */
const MAX_LENGTH = 8192;

/** Whether a segment is a random run: 16 or more letters and digits, not a word. */
const isRandomRun = (segment: string) => segment.length >= PIECE && !isOrdinaryWord(segment);

/**
 * Whether words may lead or trail an unguessable part of `value`: it holds a character base64
 * never holds and is no longer than a token or a key. Most tokens (hex, base64) do not, and
 * nothing more is asked about them.
 *
 * @example
 * ```ts
 * import { mayLeadWithWords } from "./unguessable.ts";
 * if (!mayLeadWithWords("default:development.4f1c") || mayLeadWithWords("4f1c2e9a-7b3d")) throw new Error();
 * ```
 */
export function mayLeadWithWords(value: string): boolean {
  return value.length <= MAX_LENGTH && JOINER.test(value);
}

/**
 * Where the unguessable part of `value` stands when words lead or trail it: from the first
 * segment of letters and digits that is no ordinary word (nor inside `plain`, texts the run
 * wrote in the clear) to the last, when that stretch holds a random run and is joined to the
 * words by a character base64 never holds. Undefined when the whole value is its own (no such
 * words, nothing random, or longer than a token or a key).
 *
 * @example
 * ```ts
 * import { unguessableSpan } from "./unguessable.ts";
 * const token = "default:development." + "4f1c2e9a".repeat(4);
 * if (unguessableSpan(token)?.join() !== "20,52") throw new Error(String(unguessableSpan(token)));
 * if (unguessableSpan("correct:horse.battery.staple-2024") !== undefined) throw new Error();
 * if (unguessableSpan("Xk-9f8e7d6c5b4a3f2e1d") !== undefined) throw new Error();
 * const team = "team-42:eu." + "4f1c2e9a".repeat(4);
 * if (unguessableSpan(team) !== undefined || unguessableSpan(team, [[0, 7]])?.[0] !== 11) throw new Error();
 * ```
 */
export function unguessableSpan(value: string, plain: readonly Span[] = []): Span | undefined {
  if (!mayLeadWithWords(value)) return undefined;
  const segments = [...value.matchAll(SEGMENT)];
  const inPlain = (at: number, end: number) => plain.some(([s, e]) => s <= at && end <= e);
  const own = ({ 0: s, index }: RegExpExecArray) =>
    /[A-Za-z0-9]/.test(s) && !isOrdinaryWord(s) && !inPlain(index, index + s.length);
  const first = segments.findIndex(own);
  const last = segments.findLastIndex(own);
  if (first === -1 || !segments.slice(first, last + 1).some((m) => isRandomRun(m[0]))) {
    return undefined;
  }
  const lead = value.slice(0, segments[first].index);
  const trail = value.slice(segments[last].index + segments[last][0].length);
  // The words must stand apart from the run: base64's own `-`, `/`, `+`, `_` do not part them.
  const joined = (affix: string, at: string | undefined) =>
    affix !== "" && /[A-Za-z]/.test(affix) && at !== undefined && JOINER.test(at);
  const start = joined(lead, lead.at(-1)) ? lead.length : 0;
  const end = joined(trail, trail[0]) ? value.length - trail.length : value.length;
  return start === 0 && end === value.length ? undefined : [start, end];
}

/** What a secret's own text is: where its pieces come from, and whether its beginnings are its. */
export interface OwnText {
  /** Whether the secret's first characters before a cut `…` are masked. */
  beginnings: boolean;
  /** The stretches whose every 16 characters are masked. */
  stretches: string[];
  /** Its unguessable part, when words lead it: masked as a literal, its beginnings too. */
  core?: string;
}

/**
 * The own text of a secret `value`: not the public texts (the run id) and `shown` values it is
 * made of (see `notSecretSpans`), nor the words and shown values that lead or trail its
 * unguessable part (see {@linkcode unguessableSpan}), whose pieces take at least four of that
 * part's characters. Undefined when it is no secret at all.
 *
 * @example
 * ```ts
 * import { ownText } from "./unguessable.ts";
 * const hash = "4f1c2e9a".repeat(4);
 * const own = ownText(`default:development.${hash}`, new Set(), []);
 * if (own?.beginnings !== false || own.core !== hash) throw new Error(JSON.stringify(own));
 * if (own.stretches[0] !== `development.${hash}`) throw new Error(own.stretches[0]);
 * if (ownText("pw-run42", new Set(["run42"]), [])?.stretches.join() !== "pw-") throw new Error();
 * if (ownText(`team-42:eu.${hash}`, new Set(), ["team-42"])?.core !== hash) throw new Error();
 * ```
 */
export function ownText(
  value: string,
  publics: ReadonlySet<string>,
  shown: readonly string[],
): OwnText | undefined {
  const spans = notSecretSpans(value, publics, shown, MIN_SECRET_LENGTH);
  if (spans === undefined) return undefined;
  const core = unguessableSpan(value, spans);
  // A public text inside the unguessable part (`${RUN_ID}` in it) is no piece of it either.
  if (core === undefined || spans.some(([s, e]) => s < core[1] && core[0] < e)) {
    if (spans.length === 0) return { beginnings: true, stretches: [value] };
    // A beginning cut short ("2026…") that is public text is not this secret's.
    return {
      beginnings: spans[0][0] >= MIN_SECRET_LENGTH,
      stretches: secretStretches(value, spans),
    };
  }
  const [start, end] = core;
  const edge = PIECE - MIN_SECRET_LENGTH;
  const stretch = value.slice(Math.max(0, start - edge), Math.min(value.length, end + edge));
  return { beginnings: start === 0, stretches: [stretch], core: value.slice(start, end) };
}
