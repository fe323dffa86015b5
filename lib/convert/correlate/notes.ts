/**
 * The notes correlation leaves for the summary and the flow's header, once
 * every step is built: requests given the jar's cookies, uploads and where
 * their files come from, an `If-Match` no response gave, cookies left out.
 *
 * @module
 */
import { pluralWord } from "../../_util/plural.ts";
import type { Correlator, Upload } from "./state.ts";
import { loginCopyNotes } from "./login_copies.ts";
import { positionNote } from "./position_notes.ts";

/**
 * Adds the notes of the finished correlation to `c.notes`.
 *
 * @example
 * ```ts
 * import { addNotes } from "./notes.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.droppedCookies = 2;
 * addNotes(c);
 * if (!c.notes[0].startsWith("Cookies that no recorded response set were left out of 2 requests")) throw new Error();
 * ```
 */
export function addNotes(c: Correlator): void {
  if (c.jarFilled > 0) {
    const n = c.jarFilled;
    c.notes.push(
      `${n} ${pluralWord(n, "request was", "requests were")} recorded without ${
        pluralWord(n, "its", "their")
      } cookies; ${
        pluralWord(n, "it sends", "they send")
      } the cookies earlier responses set, as the browser did.`,
    );
  }
  if (c.uploads.length > 0) c.notes.push(uploadsNote(c.uploads));
  if (c.strayIfMatch.length > 0) {
    c.notes.push(
      `The If-Match header of ${
        c.strayIfMatch.map((n) => `"${n}"`).join(", ")
      } names an ETag no recorded response gave, and is sent as recorded: a fresh instance answers 412 unless a step before reads the resource.`,
    );
  }
  c.notes.push(...loginCopyNotes(c));
  const byPosition = positionNote(c);
  if (byPosition) c.notes.push(byPosition);
  const awaited = c.steps.filter((s) => s.loop?.shows !== undefined && !s.loop.answered)
    .map((s) => `"${s.name}"`);
  if (awaited.length > 0) {
    c.notes.push(
      `The server showed what a write sent only a while after answering it (the page read again until it did, or 202): ${
        pluralWord(awaited.length, "step")
      } ${awaited.join(", ")} ${
        pluralWord(awaited.length, "is", "are")
      } read again, 250 ms apart, until the body shows it, for at most twice the recorded wait.`,
    );
  }
  const listed = listedNote(c);
  if (listed) c.notes.push(listed);
  if (c.droppedCookies > 0) {
    c.notes.push(
      `Cookies that no recorded response set were left out of ${c.droppedCookies} ${
        pluralWord(c.droppedCookies, "request")
      } that authenticate with an Authorization header; add a cookie header if the API needs them.`,
    );
  }
}

/** The one note that names every file uploads send, and which are placeholders. */
function uploadsNote(uploads: Upload[]): string {
  const shown = uploads.map((u) => `${u.path} (step "${u.step}"${uploadSource(u)})`);
  const missing = uploads.some((u) => u.placeholder);
  return `Uploads send files from beside the flow: ${[...new Set(shown)].join(", ")}${
    missing
      ? "; the recording does not hold an upload's content, so each placeholder file must be replaced by a real one"
      : ""
  }.`;
}

/**
 * What a body-less recording also lost: the file's name, which a server may require (Tomcat's
 * Manager refuses a deployed file not named `*.war`); the flow sends the file under its own.
 */
const NO_NAME =
  "not even the file's name (sent as the file's base name unless the part gives `filename`: set the one the server expects)";

/** Where an upload's file and fields come from, after its step's name. */
function uploadSource(u: Upload): string {
  if (u.omitted) {
    return `, a placeholder; the recording holds none of the body, ${NO_NAME}, so check the form's field names`;
  }
  if (u.form) {
    const { typed, blank = [] } = u.form;
    const parts = [
      typed.length > 0 &&
      `${typed.join(", ")} ${
        pluralWord(typed.length, "holds", "hold")
      } "(not recorded)" for what was typed`,
      blank.length > 0 &&
      `${blank.join(", ")} ${pluralWord(blank.length, "is", "are")} sent empty as the page had ${
        pluralWord(blank.length, "it", "them")
      } (fill in what was typed, if anything)`,
    ].filter((p) => p !== false);
    return `, a placeholder; the recording holds none of the body, ${NO_NAME}: its fields are the form's on ${u.form.page}${
      parts.map((p) => `, and ${p}`).join("")
    }`;
  }
  return u.placeholder ? ", a placeholder" : "";
}

/** The note for reads that wait for a record a write answered (listed_later.ts), or undefined. */
function listedNote(c: Correlator): string | undefined {
  const listed = c.steps.filter((s) => s.loop?.answered).map((s) => `"${s.name}"`);
  if (listed.length === 0) return undefined;
  return `The server finished a record a write's answer named only after answering it (a time the recording shows on it falls between the write's answer and the listing): ${
    pluralWord(listed.length, "step")
  } ${listed.join(", ")} ${
    pluralWord(listed.length, "is", "are")
  } read again, 250 ms apart, until the body lists it, for at most twice the recorded wait.`;
}
