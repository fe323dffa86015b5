/**
 * How the tests of tests/real/ start an AdminJS panel (npm `adminjs` 7.8.17 with
 * `@adminjs/express` and `@adminjs/sequelize`), as its users set one up: a few lines of
 * Express that register the Sequelize adapter, define their models and mount the panel with
 * `buildAuthenticatedRouter` (a login form, `express-session`). The models are written here, of
 * a panel's usual kind: `Author` (name, e-mail) and `Post` (title, a textarea, a flag, and
 * `belongsTo` Author). The database is a throwaway PostgreSQL 15 cluster (`unleash.ts`'s
 * `startDatabase`); Sequelize creates the tables at the start, and AdminJS bundles its
 * front end into the instance's folder.
 *
 * @module
 */
import { type Instance, type Launch, type Pinned, start, withRetriedStart } from "./servers.ts";
import { startDatabase } from "./unleash.ts";

/** The packages a user installs for the panel, at the versions `npm install` chose on 2026-11-27. */
export const ADMINJS: readonly Pinned[] = [
  { name: "adminjs", version: "7.8.17" },
  { name: "@adminjs/express", version: "6.1.1" },
  { name: "@adminjs/sequelize", version: "4.1.1" },
  { name: "sequelize", version: "6.37.8" },
  { name: "pg", version: "8.23.1" },
  { name: "express", version: "5.3.0" },
  { name: "express-session", version: "1.19.0" },
  { name: "express-formidable", version: "1.2.0" },
];

/** The panel's one admin, checked by the app's `authenticate`. */
export const ADMIN = { email: "admin@example.com", password: "Harbour-Lights-42" };

/** The panel, as its users write it; `DATABASE_URL`, `ADMIN_PASSWORD` and `PORT` from the environment. */
const APP = `import AdminJS from "adminjs";
import AdminJSExpress from "@adminjs/express";
import * as AdminJSSequelize from "@adminjs/sequelize";
import express from "express";
import { DataTypes, Sequelize } from "sequelize";

AdminJS.registerAdapter({ Resource: AdminJSSequelize.Resource, Database: AdminJSSequelize.Database });
const sequelize = new Sequelize(process.env.DATABASE_URL, { logging: false });
const Author = sequelize.define("Author", { name: DataTypes.STRING, email: DataTypes.STRING });
const Post = sequelize.define("Post", {
  title: DataTypes.STRING,
  content: DataTypes.TEXT,
  published: DataTypes.BOOLEAN,
});
Post.belongsTo(Author, { foreignKey: "authorId" });
await sequelize.sync();
const admin = new AdminJS({
  resources: [Author, { resource: Post, options: { properties: { content: { type: "textarea" } } } }],
  rootPath: "/admin",
});
const router = AdminJSExpress.buildAuthenticatedRouter(
  admin,
  {
    authenticate: async (email, password) =>
      email === "${ADMIN.email}" && password === process.env.ADMIN_PASSWORD ? { email } : null,
    cookieName: "adminjs",
    cookiePassword: "a-cookie-password-of-thirty-two-chars!!",
  },
  null,
  { resave: false, saveUninitialized: true, secret: "a-session-secret-of-some-length" },
);
const app = express();
app.use(admin.options.rootPath, router);
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening", process.env.PORT));
`;

/** The launch of the panel installed at `prefix` on the database at `url`. */
function launchOn(prefix: string, url: string): Launch {
  return {
    // AdminJS sends its front end with `send`, which answers 404 for a file under a dot folder
    // (the cache is under ~/.cache): the packages keep the path of the folder's link to them.
    command: ["node", "--preserve-symlinks", "DIR/app.mjs"],
    env: {
      DATABASE_URL: url,
      ADMIN_PASSWORD: ADMIN.password,
      PORT: "PORT",
      NODE_ENV: "production",
    },
    seed: async (dir) => {
      await Deno.writeTextFile(`${dir}/app.mjs`, APP);
      // The app's imports resolve from its own folder: the cached install's packages.
      await Deno.symlink(`${prefix}/node_modules`, `${dir}/node_modules`);
    },
    origin: (text, port) =>
      text.includes(`listening ${port}`) ? `http://127.0.0.1:${port}` : undefined,
    probe: "/admin/login",
  };
}

/** A running panel and a way to read its tables (`psql`'s unaligned rows). */
export interface Panel extends Instance {
  query(sql: string): Promise<string[]>;
}

/**
 * Runs `fn` with a fresh panel on a fresh database, both stopped and removed whatever happens;
 * the start (bundling, tables) is tried three times on a busy machine.
 */
export async function withPanel<T>(prefix: string, fn: (panel: Panel) => Promise<T>): Promise<T> {
  const db = await startDatabase();
  try {
    return await withRetriedStart(
      start,
      () => launchOn(prefix, db.url),
      (instance) => fn({ ...instance, query: (sql) => psql(db.url, sql) }),
    );
  } finally {
    await db.close();
  }
}

/** The rows `sql` selects, one line each, columns split by `|` (bounded: 60 s). */
async function psql(url: string, sql: string): Promise<string[]> {
  const child = new Deno.Command("/usr/lib/postgresql/15/bin/psql", {
    args: [url, "-Atc", sql],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output().finally(() => clearTimeout(timer));
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`psql: ${new TextDecoder().decode(out.stderr)}`);
  return text.split("\n").filter((line) => line !== "");
}
