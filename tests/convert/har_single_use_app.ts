/**
 * A server-rendered app whose every page hands out a single-use token, as
 * Shaarli's does (tests/real/shaarli_har_test.ts), for the `convert har`
 * tests of its classes: a stand-in on 127.0.0.1 and a recording of one
 * journey on ANOTHER instance of it, built here the shape Chromium records
 * (documents only, HTML answers).
 *
 * The stand-in forgets a token once a request spends it. Its login form
 * holds the token, a password input and a "keep me signed in" checkbox
 * (`keep_session`, checked); its home page links an action (`/pin`) with a
 * token of its own in the query.
 */
import { runCli } from "../support/cli.ts";
import { formPost, htmlPage, pagesHar, type PageSpec } from "../support/form_pages.ts";

/** The password the recording typed (and the user sets). */
export const PASSWORD = "typed-at-the-form-9";

/** The login form, holding `token`. */
export const loginForm = (token: string) =>
  `<form method="post" name="loginform"><input type="text" name="login">` +
  `<input type="password" name="password">` +
  `<input type="checkbox" name="keep_session" checked>` +
  `<input type="hidden" name="token" value="${token}"></form>`;

/** The home page: a link to pin the first item, holding `token`. */
export const homePage = (token: string) =>
  `<ul><li>Tide tables <a href="/pin?token=${token}">pin</a></li></ul>`;

/** A stand-in instance: each page a fresh token, each token good once; what it accepted. */
export function singleUseStandIn() {
  const handed = new Set<string>();
  const done = { logins: 0, pins: 0, refused: [] as string[] };
  const fresh = () => {
    const token = crypto.randomUUID().replaceAll("-", "");
    handed.add(token);
    return token;
  };
  const spend = (token: string | null) => token !== null && handed.delete(token);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!spend(form.get("token")) || form.get("password") !== PASSWORD) {
        done.refused.push(`login ${form}`);
        return htmlPage(url.origin, 403, "wrong token or password");
      }
      done.logins++;
      return htmlPage(url.origin, 302, "", "/");
    }
    if (url.pathname === "/login") return htmlPage(url.origin, 200, loginForm(fresh()));
    if (url.pathname === "/pin") {
      if (!spend(url.searchParams.get("token"))) {
        done.refused.push(`pin ${url.search}`);
        return htmlPage(url.origin, 403, "wrong token");
      }
      done.pins++;
      return htmlPage(url.origin, 302, "", "/");
    }
    return htmlPage(url.origin, 200, homePage(fresh()));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, done, close: () => server.shutdown() };
}

/** The recording's origin (another instance). */
export const ORIGIN = "http://127.0.0.1:8300";

/**
 * The journey on another instance: open the login form, post it (the box
 * left checked), then `pages` (the home page and the pin, by default).
 */
export function singleUseRecording(pages?: PageSpec[]): string {
  const login = "0f3a9c1b2d4e5f60718293a4b5c6d7e8";
  const home = ["a1b2c3d4e5f60718293a4b5c6d7e8f90", "c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4"];
  return pagesHar(ORIGIN, [
    { method: "GET", path: "/login", text: loginForm(login) },
    {
      method: "POST",
      path: "/login",
      location: "/",
      ...formPost(`login=curator&password=${PASSWORD}&keep_session=on&token=${login}`),
    },
    ...(pages ?? [
      { method: "GET", path: "/", text: homePage(home[0]) },
      { method: "GET", path: `/pin?token=${home[0]}`, location: "/" },
      { method: "GET", path: "/", text: homePage(home[1]) },
    ]),
  ]);
}

/**
 * Converts `har` with the default options and runs the flow twice on one
 * fresh stand-in with `BASE_URL` and what else the summary asks that the
 * user knows (`LOGIN_PASSWORD`): the summary, the flow and each run.
 */
export async function convertAndRunTwice(har: string) {
  const dir = await Deno.makeTempDir();
  const app = singleUseStandIn();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    const flow = converted.code === 0 ? await Deno.readTextFile(`${dir}/app.yaml`) : "";
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    const runs = [];
    for (let n = 0; n < 2 && flow !== ""; n++) {
      runs.push(await runCli(["run", `${dir}/app.yaml`], { env }));
    }
    return { converted, flow, runs, done: app.done };
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}
