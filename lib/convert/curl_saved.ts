/**
 * An answer docs save to a file and send later: `curl …/config > snap.json`
 * (or `-o F`, `--output F`, `-O`), then `curl -T snap.json …`,
 * `--data-binary @snap.json`, `-d @snap.json`, `--json @snap.json`,
 * `-F field=<snap.json` or `-F file=@snap.json`. The file holds what the
 * earlier answer held, so the saving step captures its body whole (`$.body`)
 * and the later step sends that capture: the flow needs no file, and sends
 * what this run's server answered, not a file left from another run. A
 * multipart part is a `{content}` part, which sends the text's bytes as they
 * are, as curl sends the file's. A file sent before any command saves it, or
 * an answer saved with its head (`-i`) or by a command of several URLs, stays
 * a file, as before.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { CurlFiles } from "./curl_files.ts";
import type { CurlRequest } from "./curl_options.ts";
import type { CurlRecord } from "./curl_request.ts";
import { envMarker, type EnvNames, type ShellCommand } from "./curl_shell.ts";
import type { Step } from "./model.ts";
import { WHOLE_BODY } from "./spelling.ts";
import { curlFileType } from "./curl_steps.ts";

/** A command's records, as `convertCurl` built them. */
interface Built {
  command: ShellCommand;
  records: CurlRecord[];
  notes: string[];
}

/** A file an earlier command saved its answer to, sent by a later one. */
interface Use {
  path: string;
  writer: Built;
  /** How the later command sends it: as its body, or as a `-F name=<F` field's value. */
  as: "body" | "field";
  /** `-T`: curl sends no Content-Type, which the flow's `body_file` made octet-stream. */
  upload?: boolean;
  /**
   * Carried as base64 (`{body: base64}`, `body_base64`, `content_base64`): a
   * file whose name says nothing of text, whose bytes a text capture would change.
   */
  bytes?: boolean;
}

/**
 * The files answers were saved to while the commands are read in order, and
 * which later commands send them.
 *
 * @example
 * ```ts
 * import { SavedAnswers } from "./curl_saved.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const saved = new SavedAnswers([]);
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const first = readCurlArgs(["a.test/config", "-o", "snap.json"]);
 * saved.wrote(first, { command, records: [{}], notes: [] } as never);
 * const later = readCurlArgs(["-T", "snap.json", "a.test/config"]);
 * saved.sends(later, { ...command, line: 2 });
 * if (!saved.handled.has("snap.json")) throw new Error();
 * ```
 */
export class SavedAnswers {
  /** The command that last saved its answer to each path. */
  #writers = new Map<string, Built>();
  #uses = new WeakMap<ShellCommand, Use[]>();
  /** Paths the command being read sends from an earlier answer: no placeholder, no note. */
  readonly handled = new Set<string>();

  constructor(private readonly env: EnvNames) {}

  /**
   * Reads which saved files `req` sends, before its records are built:
   * `-d @F` and `--json @F` alone become `--data-binary @F` (its content
   * type kept), a `-F name=<F` part's value a marker the capture replaces.
   */
  sends(req: CurlRequest, command: ShellCommand): void {
    this.handled.clear();
    const writer = (path: string) => {
      const w = this.#writers.get(path);
      return w && w.records.length === 1 ? w : undefined;
    };
    const uses = [...bodyUses(req, writer, command), ...fieldUses(req, writer, this.env)];
    for (const use of uses) if (use.as === "body") this.handled.add(use.path);
    if (uses.length > 0) this.#uses.set(command, uses);
  }

  /** Notes where `built`'s command saves its answer, once its records are built (after `sends`). */
  wrote(req: CurlRequest, built: Built): void {
    // What this command sent is no other command's: the next reads its files as they are.
    this.handled.clear();
    const path = answerPath(req);
    if (path !== undefined) this.#writers.set(path, built);
  }

  /**
   * `files` for the command being read: a saved file it sends is there (no
   * placeholder is written for it, no note says it is missing).
   */
  around(files: CurlFiles): CurlFiles {
    const own = (path: string) => this.handled.has(path);
    return {
      read: (path) => files.read(path),
      rebase: (path, sent) => own(path) ? path : files.rebase(path, sent),
      exists: (path) =>
        own(path) || (files.exists ? files.exists(path) : files.read(path) !== undefined),
      refused: files.refused &&
        ((path, by) => own(path) ? undefined : files.refused!(path, by)),
      keep: files.keep && ((name, bytes, about) => files.keep!(name, bytes, about)),
      written: files.written && ((path) => files.written!(path)),
    };
  }

  /**
   * Captures each saved answer on its step and sends it where a later step
   * sent the file; the `-F name=<F` markers' templates are added to `captured`.
   */
  carry(
    c: Correlator,
    built: readonly Built[],
    captured: Map<string, string>,
    notes: string[],
  ): void {
    // One map of the steps by their record: a lookup per command stays linear in the commands.
    const byRecord = new Map(c.steps.map((s) => [s.first, s]));
    const stepOf = (b: Built) => b.records[0] && byRecord.get(b.records[0].record);
    const names = new Map<string, string>();
    for (const b of built) {
      const uses = this.#uses.get(b.command);
      const step = uses && stepOf(b);
      for (const use of (step && uses) ?? []) {
        const writer = stepOf(use.writer);
        if (!writer) continue;
        const ref = c.sp.capRef(writer.name, captureName(writer, use, names));
        step!.uses.add(writer.name);
        if (use.as === "field") captured.set(fieldName(use.path, use.writer.command), ref);
        const note = use.as === "body"
          ? sentNote(step!, use, ref, writer.name)
          : use.bytes || isText(use.path)
          ? undefined
          : binaryNote(use, writer.name);
        if (note) notes.push(`Step ${step!.name} (line ${b.command.line}): ${note}`);
      }
    }
  }
}

/** The saving command of a path, when one saved its answer there. */
type WriterOf = (path: string) => Built | undefined;

/**
 * `-T F`, or `-d @F`, `--data-binary @F`, `--json @F` alone, of a saved
 * file: the body. The data piece becomes `--data-binary @F` (what the flow
 * sends as the step's body), `--json`'s content type and accept kept.
 */
function bodyUses(req: CurlRequest, writer: WriterOf, command: ShellCommand): Use[] {
  const upload = req.upload !== undefined && req.form.length === 0 ? req.upload : undefined;
  if (upload !== undefined) {
    const w = writer(upload);
    return w ? [{ path: upload, writer: w, as: "body", upload: true, bytes: !isText(upload) }] : [];
  }
  const body = onlyFile(req);
  const w = body && writer(body.path);
  if (!body || !w) return [];
  if (body.kind === "json") jsonHeaders(req);
  else if (body.kind === "data") {
    command.notes.push(
      `curl removes the line breaks of -d @${body.path}; the flow sends the saved answer as it is (use --data-binary to match).`,
    );
  }
  req.data = [{ kind: "binary", text: `@${body.path}` }];
  return [{ path: body.path, writer: w, as: "body", bytes: !isText(body.path) }];
}

/**
 * `-F name=<F` and `-F name=@F` parts of a saved file: a `{content}` part
 * whose value is a marker the capture replaces, sent as curl sends the file:
 * `@F` with its filename and type, `<F` with neither; both byte for byte.
 */
function fieldUses(req: CurlRequest, writer: WriterOf, env: EnvNames): Use[] {
  const uses: Use[] = [];
  for (const part of req.form) {
    const w = part.from !== "text" ? writer(part.value) : undefined;
    if (!w) continue;
    // A file part of a file whose name says nothing of text goes as its bytes; a `<F` part has
    // no filename, which bytes need, and stays text (binaryNote says so).
    const bytes = part.from === "file" && !isText(part.value);
    uses.push({ path: part.value, writer: w, as: "field", bytes });
    part.content = part.from === "file"
      ? {
        filename: part.filename ?? part.value.split(/[\\/]/).at(-1)!,
        type: part.type ?? curlFileType(part.value),
        ...(bytes ? { base64: true } : {}),
      }
      : {};
    part.value = envMarker(env, fieldName(part.value, w.command));
    part.from = "text";
  }
  return uses;
}

/** `-d @F`, `--data-binary @F` or `--json @F` alone: the file and how curl reads it. */
function onlyFile(req: CurlRequest): { path: string; kind: string } | undefined {
  const [piece, more] = req.data;
  if (!piece || more || req.get || piece.given || !/^(data|binary|json)$/.test(piece.kind)) {
    return undefined;
  }
  const path = /^@(?!-$)(.+)$/s.exec(piece.text)?.[1];
  return path === undefined ? undefined : { path, kind: piece.kind };
}

/** `--json`'s headers, which the piece turned `--data-binary` no longer adds. */
function jsonHeaders(req: CurlRequest): void {
  const has = (name: string) => req.headers.some(([n]) => n.toLowerCase() === name);
  if (!has("content-type")) req.headers.push(["Content-Type", "application/json"]);
  if (!has("accept")) req.headers.push(["Accept", "application/json"]);
}

/**
 * The file a command saves its answer to: `-o F`, `--output F`, `> F`, or
 * `-O`'s last segment of the URL; none for `-o -` (standard output),
 * `/dev/null`, or an answer written with its head (`-i`).
 */
function answerPath(req: CurlRequest): string | undefined {
  const { output, remote, head } = req.answer;
  if (head || req.urls.length !== 1) return undefined;
  if (output !== undefined) return output === "-" || output === "/dev/null" ? undefined : output;
  if (!remote) return undefined;
  const segment = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#]*([^?#]*)/i.exec(req.urls[0])![1];
  return segment.split("/").at(-1) || undefined;
}

/**
 * The capture of the saved answer on the writer's step, taken once per
 * writer and form: its text (`$.body`), or its bytes as base64 (`{body: base64}`).
 */
function captureName(writer: Step, use: Use, names: Map<string, string>): string {
  const key = `${use.writer.command.line} ${use.writer.command.column} ${use.bytes ? "b" : "t"}`;
  const had = names.get(key);
  if (had !== undefined) return had;
  const base = use.path.split(/[\\/]/).at(-1)!.replace(/\.[^.]*$/, "").toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  const name = writer.captureNames.take(/^[a-z]/.test(base) ? base : `saved_${base}`);
  writer.captures.push([
    name,
    use.bytes ? { kind: "bytes" } : { kind: "regex", name, pattern: WHOLE_BODY },
  ]);
  names.set(key, name);
  return name;
}

/**
 * The body the saved answer is sent as, where the step sent the file. A
 * flow holds every answer decoded (the runtime reads gzip, deflate and br as
 * `curl --compressed` does), so a `Content-Encoding` the command sends with
 * it (`-H 'Content-Encoding: gzip' -T data.gz`, the answer saved compressed
 * with `-H 'Accept-Encoding: gzip'`) would lie about the body: it is left
 * out, and returned for the note.
 */
function sendAnswer(step: Step, ref: string, use: Use): string | undefined {
  step.bodyFile = undefined;
  if (use.bytes) step.bodyBase64 = ref;
  else step.body = ref;
  const upload = use.upload;
  const coding = step.headers.find(([n]) => n === "content-encoding")?.[1];
  step.headers = step.headers.filter(([n]) => n !== "content-encoding");
  // A string body goes out as it is; the file went out as octet-stream, which -T's note says.
  if (upload && !step.headers.some(([n]) => n === "content-type")) {
    step.headers.push(["content-type", "application/octet-stream"]);
  }
  return coding;
}

/** The environment name a `-F name=<F` marker stands for: never a variable's. */
function fieldName(path: string, writer: ShellCommand): string {
  return `\u0000saved ${writer.line} ${path}`;
}

/** Names of files that hold text, which a capture carries byte for byte. */
const TEXT_FILE =
  /\.(json|jsonl|ndjson|txt|text|xml|ya?ml|csv|tsv|html?|md|toml|ini|conf|cfg|log|js|css|sql|svg|graphql|gql|properties|env)$/i;

/** Whether a file's name says it holds text, which a capture carries as text. */
function isText(path: string): boolean {
  return TEXT_FILE.test(path);
}

/** Why a saved answer sent as a `-F 'f=<F'` field, whose name says nothing of text, may change. */
function binaryNote(use: Use, writer: string): string {
  return `"${use.path}" is the answer step ${writer} saved; the flow captures it as text and sends that: an answer that is not UTF-8 text (an archive, an image) would not be sent byte for byte.`;
}

/**
 * Sends the saved answer as `step`'s body where it sent the file; what the
 * summary says of it: a `Content-Encoding` left out, or a file whose name
 * says nothing of text.
 */
function sentNote(step: Step, use: Use, ref: string, writer: string): string | undefined {
  const coding = step.bodyFile === use.path ? sendAnswer(step, ref, use) : undefined;
  return coding === undefined ? undefined : decodedNote(use, writer, coding);
}

/** A saved answer sent back with a `Content-Encoding`: the flow sends it decoded, without it. */
function decodedNote(use: Use, writer: string, coding: string): string {
  return `"${use.path}" is the answer step ${writer} saved, which the flow holds decoded; it is sent decoded, without "Content-Encoding: ${coding}".`;
}
