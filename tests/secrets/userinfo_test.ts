import assert from "node:assert/strict";
import { maskUserinfo, userinfoSecrets } from "../../lib/secrets/userinfo.ts";

Deno.test("a URL's password is secret raw and percent-encoded; the user name is not", () => {
  const forms = userinfoSecrets("http://ann:pa@ss wörd@proxy.test:3128");
  assert.ok(forms.includes("pa@ss wörd") && forms.includes("pa%40ss%20w%C3%B6rd"));
  assert.ok(!forms.includes("ann"));
  assert.deepEqual(userinfoSecrets("https://api.test/path@x"), []);
});

Deno.test("maskUserinfo masks a URL's password, everything up to the last @", () => {
  assert.equal(maskUserinfo("proxy http://u:p1@h:1 in use"), "proxy http://u:***@h:1 in use");
  assert.equal(maskUserinfo("http://u:p@ss@h:1"), "http://u:***@h:1");
  assert.equal(maskUserinfo("http://u:12/pw@h:1", { proxy: true }), "http://u:***@h:1");
});
