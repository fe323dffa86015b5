/**
 * The convert stage (`flowrun convert har`): takes a browser recording (a
 * HAR, as text or bytes; optionally a second recording of the same journey)
 * and gives the text of a flow that replays it, a summary of what was kept,
 * dropped and replaced, and the files the flow uploads. Pure: no file or
 * network access, except `--verify`, which sends the steps through the
 * runner's own step level.
 *
 * The pipeline ({@linkcode convertHar} in `har.ts`), one stage per file:
 *
 * 1. **Read** (`har_input.ts` decodes the bytes and the fields HAR writers
 *    disagree on; `har_model.ts` parses entries into records, with
 *    `_har_fields.ts`).
 * 2. **Select** (`select.ts`): drop the noise (`noise.ts` by host, type and
 *    path; `noise_headers.ts` for headers and cookies), keep the pages that
 *    take part (`pages.ts`, `uploads.ts` for the forms that post an upload),
 *    put redirect cookies back (`redirects.ts`) and the redirects of posts a
 *    service worker answered (`redirected_posts.ts`), fold a worker's copy
 *    of the page's request into it (`worker_copies.ts`), name what was
 *    dropped of the app's own traffic (`dropped.ts`), decode the kept bodies
 *    (`har_bodies.ts`).
 * 3. **Group** (`polls.ts`): repeated polls become one step with a loop.
 * 4. **Correlate** (`correlate/`): each request becomes a template; values
 *    responses produced become captures, secrets variables, client-made
 *    values generated ones. With a second recording its evidence overrules
 *    the guesses (`two_recordings.ts` aligns the two,
 *    `two_recordings_correlate.ts` decides, `fresh_from.ts` makes a
 *    differing value fresh).
 * 5. **Write** (`write.ts`, `yaml_out.ts`, `spelling.ts`): the flow's text,
 *    with checks from the recorded responses (`assertions.ts`) and every
 *    recorded secret masked.
 * 6. **Verify**, with `--verify` (`verify.ts`): the steps sent to a live
 *    instance (`verify_live.ts`), and repaired where a live value differs
 *    (`verify_state.ts`, `verify_repair.ts`, `verify_template.ts`,
 *    `verify_values.ts`).
 *
 * Shared by the stages: `model.ts` (the steps as they are built), `json.ts`
 * (recorded JSON and URL parts), `names.ts` (step, capture and variable
 * names), `values.ts` (what a value looks like: an id, a token, a secret).
 * A new converter (another recording format) is a new reader that gives
 * records, then the same stages.
 *
 * **`convert curl`** is such a reader ({@linkcode convertCurl} in
 * `curl.ts`): the text split as bash (`curl_shell.ts`) or as cmd
 * (`curl_cmd.ts`) would split it, each command's options read as curl reads
 * them (`curl_options.ts`, with curl's option tables in
 * `curl_option_table.ts` and `-K` files read by `curl_config.ts`) into
 * records (`curl_request.ts`, with the data pieces joined by `curl_data.ts`
 * and URL globs expanded by `curl_glob.ts`), then the
 * correlate and write stages with rules for a command sent as written
 * (`curl_steps.ts`: no run id, no fresh values, `$NAME` kept as a variable).
 *
 * **`convert openapi`** is no recording: `openapi/` (its own face,
 * `openapi/mod.ts`) bundles a document and the files its `$ref`s name, and
 * writes a starter suite from it with `names.ts` and `yaml_out.ts`.
 *
 * **`convert postman`** is no recording either: `postman/` (its own face,
 * `postman/mod.ts`) reads a collection and an environment, translates test
 * scripts parsed with acorn (`postman/script/`), and writes flows with
 * `names.ts` and `yaml_out.ts`. It is not re-exported here, so nothing that
 * imports this face loads the JavaScript parser; `cli/convert_postman.ts`
 * imports `postman/mod.ts` on demand.
 *
 * No size exceptions: every function is under 60 lines and complexity 15.
 *
 * Other stages may import a file of this folder directly: `cli/convert.ts`
 * imports `har.ts` on demand, so this face is for library users. `--verify`
 * is reached through `verify.ts` (`verifyConversion` over the
 * `prepareConversion` of `har.ts`), whose state is the converter's own.
 *
 * @example
 * ```ts
 * import { convertHar } from "./mod.ts";
 * const har = JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "https://a.test/api/me" },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * }] } });
 * const { yaml, summary } = convertHar(har);
 * if (!yaml.includes("- name: get_me") || summary.kept !== 1) throw new Error(yaml);
 * ```
 *
 * @module
 */
export {
  convertHar,
  type ConvertOptions,
  type ConvertResult,
  type ConvertSummary,
  formatSummary,
} from "./har.ts";
export {
  convertCurl,
  type CurlFiles,
  type CurlOptions,
  type CurlResult,
  type CurlSummary,
  formatCurlSummary,
} from "./curl.ts";
export type { OwnDropped } from "./dropped.ts";
export type { Decision, TwoRecordingsSummary } from "./two_recordings_correlate.ts";
