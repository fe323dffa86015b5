/** A missing file's sibling that was probably meant. */
import assert from "node:assert/strict";
import { nearFile } from "../../lib/io/near_file.ts";

Deno.test("nearFile prefers the same name with another extension, then a near spelling", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-near-file-" });
  try {
    await Deno.writeTextFile(`${dir}/login.yaml`, "");
    await Deno.writeTextFile(`${dir}/logout.yml`, "");
    await Deno.mkdir(`${dir}/login`);
    assert.equal(nearFile(`${dir}/login.yml`), "login.yaml");
    assert.equal(nearFile(`${dir}/logout.yaml`), "logout.yml");
    assert.equal(nearFile(`${dir}/logn.yaml`), "login.yaml");
    assert.equal(nearFile(`${dir}/zzz.yaml`), undefined);
    // A directory of that stem is not a file to include.
    assert.equal(nearFile(`${dir}/login`), "login.yaml");
    assert.equal(nearFile(`${dir}/nowhere/login.yml`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
