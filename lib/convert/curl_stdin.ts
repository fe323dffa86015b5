/**
 * What a curl command reads from standard input: the file it is redirected
 * from (`< body.json`) or the text the command line holds (a here-document
 * or here-string, see `ShellCommand.stdin` in curl_shell.ts), put where the
 * command reads it (`-d @-`, `--data-binary @-`, `--json @-`,
 * `--data-urlencode name@-`, `-T -`, `-F name=@-`, `-F 'name=<-'`).
 *
 * @module
 */
/** The parts of a `CurlRequest` (curl_options.ts) that read standard input. */
interface Reads {
  data: { kind: "data" | "raw" | "binary" | "urlencode" | "json"; text: string; given?: true }[];
  form: { value: string; from: "text" | "file" | "contents" }[];
  upload?: string;
  notes: string[];
}

/**
 * `-d @-`, `--data-urlencode name@-`, `-T -` and `-F name=@-` with standard
 * input redirected from a file (`< body.json`): that file, as if named.
 *
 * @example
 * ```ts
 * import { fromStdin } from "./curl_stdin.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const r = readCurlArgs(["-d", "@-", "https://a.test/"]);
 * fromStdin(r, "body.json");
 * if (r.data[0].text !== "@body.json" || r.notes.length !== 1) throw new Error(r.data[0].text);
 * ```
 */
export function fromStdin(r: Reads, path: string): void {
  let used = false;
  for (const piece of r.data) {
    if (piece.kind === "raw") continue;
    const at = piece.kind === "urlencode" ? piece.text.search(/@-$/) : piece.text === "@-" ? 0 : -1;
    if (at === -1 || (piece.kind === "urlencode" && /[=]/.test(piece.text.slice(0, at)))) continue;
    piece.text = `${piece.text.slice(0, at)}@${path}`;
    used = true;
  }
  if (r.upload === "-" || r.upload === ".") {
    r.upload = path;
    used = true;
  }
  for (const part of r.form) {
    if (part.from !== "text" && part.value === "-") {
      part.value = path;
      used = true;
    }
  }
  if (used) r.notes.push(`Standard input is read from "${path}" (< ${path}), as the command says.`);
}

/**
 * `-d @-`, `--data-binary @-`, `--json @-`, `--data-urlencode name@-` and
 * `-F 'name=<-'` with standard input the command line holds (a here-document
 * or here-string, see `ShellCommand.stdin`, or `echo` before a pipe, see
 * `curl_pipe.ts`): its text, as curl reads it (`-d`
 * without line breaks).
 *
 * @example
 * ```ts
 * import { fromText } from "./curl_stdin.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const r = readCurlArgs(["-d", "@-", "--data-urlencode", "q@-", "https://a.test/"]);
 * fromText(r, "a b\nc\n");
 * if (r.data[0].text !== "a bc" || !r.data[0].given || r.data[1].text !== "q=a b\nc\n") {
 *   throw new Error(JSON.stringify(r.data));
 * }
 * ```
 */
export function fromText(r: Reads, text: string): void {
  let used = false;
  r.data = r.data.map((piece) => {
    if (piece.kind === "raw") return piece;
    if (piece.kind === "urlencode") {
      const at = piece.text.search(/@-$/);
      const name = piece.text.slice(0, at);
      if (at === -1 || /[=@]/.test(name)) return piece;
      used = true;
      return { kind: "urlencode", text: `${name}=${text}` };
    }
    if (piece.text !== "@-") return piece;
    used = true;
    return {
      kind: piece.kind,
      text: piece.kind === "data" ? text.replace(/[\r\n]/g, "") : text,
      given: true,
    };
  });
  for (const part of r.form) {
    if (part.from === "contents" && part.value === "-") {
      Object.assign(part, { from: "text", value: text });
      used = true;
    }
  }
  if (used) {
    r.notes.push(
      "Standard input is the text the command line gives curl (a here-document, a here-string, or what echo or printf write into a pipe), as curl reads it.",
    );
  }
}
