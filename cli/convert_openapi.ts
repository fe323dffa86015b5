/**
 * `flowrun convert openapi DOC -o DIR`: an OpenAPI 3 document (and the
 * files its `$ref`s name, read through lib/io with the document size cap)
 * → a starter suite in DIR, one flow per tag; the summary on stderr. A
 * document made of several files is bundled into DIR/openapi.bundled.json
 * for the flows' `openapi:` checks, which read local `$ref`s only; so is one
 * outside the folders the printed `flowrun run DIR` may read (its file root:
 * the working directory, or for flows outside it the folder above them).
 *
 * @module
 */
import { relative, resolve } from "node:path";
import { UsageError } from "../lib/model/errors.ts";
import { MAX_DOCUMENT_BYTES } from "../lib/model/limits.ts";
import { parse } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out } from "./output.ts";
import { save } from "./save.ts";
import { commandHelp } from "./usage.ts";

/** The options `flowrun convert openapi` accepts; its `--help` lists each. */
export const CONVERT_OPENAPI_OPTIONS = {
  output: { type: "string", short: "o" },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE = "Usage: flowrun convert openapi DOC -o DIR";
const BUNDLE = "openapi.bundled.json";

/**
 * Runs `flowrun convert openapi ARGS…` (the arguments after `openapi`);
 * resolves to the exit code.
 *
 * @example
 * ```ts
 * import { convertOpenApiCommand } from "./convert_openapi.ts";
 * if (typeof convertOpenApiCommand !== "function") throw new Error();
 * ```
 */
export async function convertOpenApiCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, CONVERT_OPENAPI_OPTIONS);
  if (values.help) {
    out(commandHelp("convert openapi", CONVERT_OPENAPI_OPTIONS));
    return EXIT.passed;
  }
  const { source, dir } = inputOf(positionals, values.output);
  const [io, openapi] = await Promise.all([
    import("../lib/io/mod.ts"),
    import("../lib/convert/openapi/mod.ts"),
    // The document's own patterns are tried on made values under a time limit (tameTest).
    import("../lib/_util/time_guard.ts").then((guard) => guard.prepareGuard()),
  ]);
  const absolute = slashes(resolve(source));
  const show = (file: string) => file === absolute ? source : slashes(relative(".", file));
  const read = await documentReader(io, absolute);
  const bundled = await openapi.bundleDocument(
    absolute,
    read,
    (d) => openapi.checkDocument(d, source),
    show,
  );
  const several = bundled.files.length > 0;
  // A Swagger 2.0 document is read as the OpenAPI 3.0 one it means, which the checks read too.
  const upgraded = bundled.document.swagger === "2.0";
  const document = upgraded ? openapi.upgradeSwagger2(bundled.document) : bundled.document;
  // The root of a run of DIR, judged by a flow in it (DIR may not exist yet).
  const outside = !several && io.outsideFileRoots(absolute, io.fileRootsFor([`${dir}/flow.yaml`]));
  const copied = several || outside || upgraded;
  const documentRef = copied ? BUNDLE : slashes(relative(resolve(dir), absolute));
  const { files, summary } = openapi.convertOpenApi({
    document,
    source,
    documentRef,
  });
  for (const file of files) {
    const target = `${dir}/${file.path}`;
    if (file.placeholder) await io.writeNewFile(target, file.text);
    else await save(target, file.text);
  }
  if (copied) await save(`${dir}/${BUNDLE}`, JSON.stringify(document, null, 2) + "\n");
  // The operations the bundle left out are named with what was converted.
  err(openapi.formatOpenApiSummary({ ...summary, broken: bundled.broken }, {
    dir,
    document: copied ? `${dir}/${BUNDLE}` : source,
    bundle: copied ? BUNDLE : undefined,
    outside,
    upgraded,
  }));
  return EXIT.passed;
}

/** The document and the output folder, one of each. */
function inputOf(positionals: string[], output: string | undefined) {
  if (positionals.length !== 1) {
    throw new UsageError(
      "no-paths",
      positionals.length === 0
        ? "Expected an OpenAPI document."
        : `Expected one OpenAPI document, got ${positionals.length} files.`,
      USAGE,
    );
  }
  if (!output) throw new UsageError("bad-command", "Missing the output folder (-o DIR).", USAGE);
  return { source: positionals[0], dir: output.replace(/\/+$/, "") || "." };
}

/** Reads the document's files, none through a link that leads out of its folder. */
async function documentReader(io: typeof import("../lib/io/mod.ts"), absolute: string) {
  const folder = await Deno.realPath(resolve(absolute, "..")).catch(() => "");
  return async (file: string) => {
    try {
      // The $ref was checked to stay in the folder; a link in it must not lead out either.
      const real = file === absolute ? folder : await Deno.realPath(file);
      if (!slashes(real).startsWith(`${slashes(folder)}/`) && real !== folder) {
        return { why: "it is a link to a file outside the document's folder" };
      }
      return await io.readBytes(file, { limit: MAX_DOCUMENT_BYTES });
    } catch (error) {
      const missing = error instanceof Deno.errors.NotFound ||
        (error as Error).cause instanceof Deno.errors.NotFound;
      if (missing) return { why: "no such file" };
      return { why: (error as Error).message };
    }
  };
}

function slashes(path: string): string {
  return path.replaceAll("\\", "/");
}
