/**
 * `flowrun export artillery <path>... -o DIR`: the flows at the paths,
 * loaded and checked as `run` loads them, written as an Artillery test
 * (`DIR/artillery.yml` and its processor file) that runs them as load,
 * locally with `artillery run` or on Artillery's distributed runners. The
 * summary on stderr names the environment variables the script reads and
 * everything it does not express. See docs/load-testing.md.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { plural } from "../lib/_util/plural.ts";
import type { ArtilleryExport, ExportOptions } from "../lib/export/mod.ts";
import { byteSize } from "./option_values.ts";
import { command } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out, redactor, useColor } from "./output.ts";
import { loadOptionsOf, loadPlan, loadProblems, readLoadInputs } from "./run/load_step.ts";
import { save } from "./save.ts";
import { commandHelp } from "./usage.ts";

/** The options `flowrun export artillery` accepts; its `--help` lists each. */
export const EXPORT_OPTIONS = {
  output: { type: "string", short: "o" },
  duration: { type: "string" },
  rate: { type: "string" },
  "ramp-to": { type: "string" },
  users: { type: "string" },
  tag: { type: "string" },
  filter: { type: "string", multiple: true },
  "file-root": { type: "string" },
  setup: { type: "string", multiple: true },
  teardown: { type: "string", multiple: true },
  cacert: { type: "string", multiple: true },
  cert: { type: "string" },
  key: { type: "string" },
  insecure: { type: "boolean" },
  "max-body": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE = "Usage: flowrun export artillery <path>... -o DIR";

/** The target engine's arguments, or undefined after printing the help. */
function parsed(args: string[]) {
  const [target, ...rest] = args;
  if (target === "--help" || target === "-h") {
    out(commandHelp("export artillery", EXPORT_OPTIONS));
    return undefined;
  }
  if (target !== "artillery") {
    throw new UsageError(
      "bad-command",
      target === undefined ? "Missing what to export to." : `Cannot export to "${target}".`,
      `${USAGE} (Artillery is the one load engine flowrun exports to).`,
    );
  }
  const noPaths = new UsageError("no-paths", "No flow files given.", USAGE);
  const found = command(rest, EXPORT_OPTIONS, noPaths, "export artillery");
  if (found && !found.values.output) {
    throw new UsageError("bad-command", "Missing the output folder (-o DIR).", USAGE);
  }
  return found;
}

/** Runs `flowrun export`; resolves to the exit code. */
export async function exportCommand(args: string[]): Promise<number> {
  const found = parsed(args);
  if (!found) return EXIT.passed;
  const { values, positionals } = found;
  const dir = values.output!.replace(/\/+$/, "") || ".";
  const [exporter, suite, io, invalid, { readNetwork }] = await Promise.all([
    import("../lib/export/mod.ts"),
    import("../lib/load/suite.ts"),
    import("../lib/io/mod.ts"),
    import("./run/invalid.ts"),
    import("./run/inputs.ts"),
  ]);
  // The phase first: a mistake in it is found before the flows are read.
  const phase = exporter.phaseOf({
    duration: values.duration,
    rate: values.rate,
    rampTo: values["ramp-to"],
    users: values.users,
  });
  // The TLS settings and body limit the processor's connections take, read as run reads them.
  const settings = await processorSettings(values, readNetwork, io.readText);
  const plan = { ...loadPlan(values, positionals, io.readEnv), checkEnv: false };
  const inputs = await readLoadInputs(plan, redactor);
  // The environment is read where the test runs, not here: unset variables are no problem.
  const loaded = await suite.loadFlows(positionals, {
    ...loadOptionsOf(plan, inputs),
    checkEnv: false,
  });
  const problems = await loadProblems(plan, loaded);
  if (problems.length > 0) {
    err(
      invalid.problemsText(
        problems,
        useColor({}),
        `${plural(loaded.files.length, "file")} checked`,
      ),
    );
    return EXIT.usage;
  }
  const done = exporter.exportArtillery(loaded.flows, {
    phase,
    from: positionals.join(" "),
    setup: loaded.setup,
    teardown: loaded.teardown,
    ...settings,
  });
  for (const file of done.files) await save(`${dir}/${file.path}`, file.text);
  // The files it uploads, as they are: bytes, not text to mask.
  for (const file of done.data) {
    await io.writeFileAtomic(`${dir}/${file.path}`, file.bytes);
    // A client certificate's key is readable by its owner only, as a key file should be.
    if (file.path.endsWith(".key")) await Deno.chmod(`${dir}/${file.path}`, 0o600);
  }
  err(summary(done, dir, settings.network !== undefined));
  return EXIT.passed;
}

/**
 * `--cacert`, `--cert`/`--key`, `--insecure` and `--max-body`, checked and
 * read as `flowrun run` reads them: the steps the processor connects
 * itself (WebSocket, SSE, gRPC) take them.
 */
async function processorSettings(
  values: {
    cacert?: string[];
    cert?: string;
    key?: string;
    insecure?: boolean;
    "max-body"?: string;
  },
  readNetwork: typeof import("./run/inputs.ts").readNetwork,
  readText: (path: string) => Promise<string>,
): Promise<Pick<ExportOptions, "network" | "maxBodyBytes">> {
  if ((values.cert === undefined) !== (values.key === undefined)) {
    const [given, missing] = values.cert === undefined ? ["key", "cert"] : ["cert", "key"];
    throw new UsageError(
      "bad-cert",
      `--${given} needs --${missing}.`,
      "Give the client certificate and its key together: --cert client.pem --key client.key.",
    );
  }
  const maxBodyBytes = byteSize(values["max-body"], "max-body");
  const plan = { caFiles: values.cacert ?? [], cert: values.cert, key: values.key };
  const network = await readNetwork({ ...plan, insecure: values.insecure === true }, readText);
  return {
    ...(network && { network }),
    ...(maxBodyBytes !== undefined && { maxBodyBytes }),
  };
}

/**
 * What the TLS options given do not reach: Artillery's own HTTP requests,
 * which trust a CA only through Node's NODE_EXTRA_CA_CERTS where it runs.
 */
function httpTls(done: ArtilleryExport, dir: string, given: boolean): string[] {
  if (done.requests === 0 || !given) return [];
  return [
    "--cacert, --cert/--key and --insecure reach the WebSocket, SSE and gRPC steps only; " +
    "Artillery's HTTP requests check certificates with Node's CAs" +
    (done.caFile ? `: set NODE_EXTRA_CA_CERTS=${dir}/${done.caFile} where Artillery runs.` : "."),
  ];
}

/** What the export wrote, what to set and what it does not express. */
function summary(done: ArtilleryExport, dir: string, tlsGiven: boolean): string {
  const uploads = done.data.filter((file) => file.path.startsWith("files/")).length;
  // The gRPC steps' .proto roots (lib/export/grpc_spec.ts).
  const protos = done.data.filter((file) => file.path.startsWith("protos/")).length;
  // The CAs and client certificates the processor's connections take (lib/export/kind_tls.ts).
  const tls = done.data.filter((file) => file.path.startsWith("tls/"));
  const lines = [
    `Wrote ${dir}/${done.files[0].path} (${plural(done.scenarios, "scenario")}, ${
      plural(done.requests, "request")
    }) and ${dir}/${done.files[1].path}${
      uploads ? `, and ${plural(uploads, "file")} it uploads under ${dir}/files/` : ""
    }${protos ? `, and the .proto files its gRPC steps call, as JSON, under ${dir}/protos/` : ""}${
      tls.length
        ? `, and the certificates its WebSocket, SSE and gRPC steps use under ${dir}/tls/`
        : ""
    }.`,
    ...httpTls(done, dir, tlsGiven),
    ...tls.filter((file) => file.path.endsWith(".key")).map((file) =>
      `${dir}/${file.path} is a client certificate's private key: keep the folder as private as it.`
    ),
    done.env.length
      ? `Set these environment variables where Artillery runs: ${done.env.join(", ")}.`
      : "It reads no environment variables.",
  ];
  if (done.notes.length > 0) {
    lines.push(`Not expressed (${done.notes.length}, also commented in the script):`);
    for (const n of done.notes) lines.push(`  ${n.flow}${n.step ? ` › ${n.step}` : ""}: ${n.what}`);
  } else {
    lines.push("Every step, capture and check is expressed.");
  }
  lines.push(`Run it: artillery run ${dir}/${done.files[0].path} --output report.json`);
  return lines.join("\n") + "\n";
}
