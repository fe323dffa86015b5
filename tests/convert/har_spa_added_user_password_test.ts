/**
 * `convert har` on a single-page admin that adds a user with a password while
 * signed in as someone else, as NocoBase 2.2's "Add user" drawer does
 * (measured by hand, docs/real-servers-har.md): `POST /api/users:create`
 * with `{"username", "email", "password"}` under the Bearer token the
 * sign-in answered, answered `{"data": {"id": 2, "username": …}}`. The page
 * builds its inputs in a script, so no input was declared
 * `type="password"`, and the journey never signs in as the new user: the
 * summary asked for the new user's password (`USERS_CREATE_PASSWORD`),
 * which nobody knows before the run chooses it.
 *
 * The evidence (lib/convert/correlate/chosen_passwords.ts): the request
 * carries a credential an earlier sign-in with another password answered,
 * hands out none, and its 2xx JSON answer is a row made (an id it did not
 * send) that echoes another value it sent (the user's name), the password
 * not among what the answer shows, and the field's name says password (a
 * CSRF token a cookie handed out, posted beside a create, is the server's).
 * Such a password is the run's own. A
 * re-authentication and one's own password change, whose answers make no
 * row, stay asked; so does a password an earlier request sent.
 */
import assert from "node:assert/strict";
import { convertHarText } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const TOKEN = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const bearer: [string, string][] = [["Authorization", `Bearer ${TOKEN}`]];

function recording(): string {
  const at = (path: string) => `http://127.0.0.1:13000/api/${path}`;
  return harOf([
    {
      method: "POST",
      url: at("auth:signIn"),
      body: '{"account":"keeper","password":"keeper-typed-51"}',
      json: { data: { token: TOKEN } },
      setCookies: [["csrf", "Zq9xV2mK7pL4wR8t"]],
    },
    {
      method: "POST",
      url: at("notes:create"),
      headers: bearer,
      body: '{"title":"Shift notes","csrf_token":"Zq9xV2mK7pL4wR8t"}',
      json: { data: { id: 5, title: "Shift notes" } },
    },
    {
      method: "POST",
      url: at("users:create"),
      headers: bearer,
      body: '{"username":"night-shift","email":"ns@example.org","password":"Quiet-Lathe-73"}',
      json: { data: { id: 2, username: "night-shift", email: "ns@example.org" } },
    },
    { url: at("users:get?filterByTk=2"), headers: bearer, json: { data: { id: 2 } } },
    {
      method: "POST",
      url: at("auth:confirm"),
      headers: bearer,
      body: '{"account":"keeper","password":"Brass-Reauth-88"}',
      json: { data: { ok: true, account: "keeper" } },
    },
    {
      method: "POST",
      url: at("auth:changePassword"),
      headers: bearer,
      body: '{"oldPassword":"keeper-typed-51","newPassword":"Tidal-Owner-64"}',
      json: { data: null },
    },
  ]);
}

Deno.test("convert har: a password a signed-in single-page admin sends once to make a user, answered with the made row, is the run's own; a re-authentication and an own password change stay asked", async () => {
  const { flow } = await convertHarText(recording());
  const header = flow.slice(0, flow.indexOf("\nname:"));
  assert.doesNotMatch(flow, /Quiet-Lathe-73/, flow);
  assert.match(flow, /^\s+password: \$\{vars\.chosen_password\}$/m, flow);
  // A CSRF token a cookie handed out, posted beside a create, is no password chosen.
  assert.equal(flow.match(/^\s+chosen_password\w*:/gm)?.length, 1, flow);
  assert.doesNotMatch(header, /USERS_CREATE_PASSWORD/, header);
  assert.match(header, /LOGIN_PASSWORD/, header);
  assert.match(header, /the "password" field sent by step "auth_confirm"/, header);
  assert.match(header, /the "newPassword" field sent by step "auth_change_password"/, header);
});
