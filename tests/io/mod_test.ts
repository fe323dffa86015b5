/**
 * The I/O stage's face: it re-exports the stage's API, and no module of the
 * folder imports a `node:` builtin up front (it would start Deno's Node layer
 * on the way to the first request).
 */
import assert from "node:assert/strict";
import * as io from "../../lib/io/mod.ts";
import { eagerNodeImports } from "../support/imports.ts";

const FOLDER = new URL("../../lib/io/", import.meta.url);

Deno.test("no io/ module imports a node: builtin up front (it starts Deno's Node layer)", async () => {
  const modules = [...Deno.readDirSync(FOLDER)].filter((e) => e.name.endsWith(".ts"));
  assert.ok(modules.length > 10, "every module of the folder is checked");
  for (const { name } of modules) {
    assert.deepEqual(await eagerNodeImports(new URL(name, FOLDER)), [], name);
  }
});

Deno.test("mod.ts gives the stage's whole API", () => {
  for (
    const name of [
      "appendText",
      "ArtifactWriteError",
      "byteSpill",
      "clientProblem",
      "closeHttpClients",
      "discoverFlowEntries",
      "displayPath",
      "ensureWritable",
      "flowCacheIn",
      "httpClient",
      "httpClientError",
      "InputFileError",
      "INTERRUPTED_WRITE_MS",
      "openStreamWriter",
      "readBytes",
      "readBytesSync",
      "readEnv",
      "readText",
      "refuseInputsAsOutputs",
      "ScratchBuffer",
      "writeFileAtomic",
      "writeNewFile",
    ]
  ) assert.ok(name in io, name);
});

Deno.test("only io/ files named _name.ts are helpers, and mod.ts exports none of their names", async () => {
  const helpers = [...Deno.readDirSync(FOLDER)].filter((e) => e.name.startsWith("_"));
  for (const { name } of helpers) {
    const helper = await import(new URL(name, FOLDER).href);
    for (const exported of Object.keys(helper)) {
      assert.ok(!(exported in io), `${name}: ${exported}`);
    }
  }
});
