/**
 * The RealWorld spec's endpoints under `/api`, one handler each, over the
 * state of `model.ts`.
 *
 * @module
 */
import {
  type Api,
  type Article,
  type Call,
  type Comment,
  type Handler,
  invalid,
  notFound,
  now,
  part,
  Reply,
  slugOf,
  text,
  type User,
} from "./model.ts";

// ---- users and profiles ----

const register = (api: Api): Handler => async ({ body }) => {
  const input = part(body, "user");
  const username = text(input.username, "username");
  const email = text(input.email, "email");
  const password = text(input.password, "password");
  if (api.users.has(username)) throw invalid("username", "has already been taken");
  if ([...api.users.values()].some((u) => u.email === email)) {
    throw invalid("email", "has already been taken");
  }
  const user: User = { email, username, password, bio: null, image: null, following: new Set() };
  api.users.set(username, user);
  return [201, await api.userView(user)];
};

const login = (api: Api): Handler => async ({ body }) => {
  const input = part(body, "user");
  const email = text(input.email, "email");
  const password = text(input.password, "password");
  const user = [...api.users.values()].find((u) => u.email === email);
  if (!user || user.password !== password) throw invalid("email or password", "is invalid");
  return [200, await api.userView(user)];
};

const currentUser = (api: Api): Handler => async (call) => [
  200,
  await api.userView(api.signedIn(call)),
];

const updateUser = (api: Api): Handler => async (call) => {
  const user = api.signedIn(call);
  const input = part(call.body, "user");
  for (const key of ["email", "bio", "image", "password"] as const) {
    if (key in input) user[key] = text(input[key], key);
  }
  return [200, await api.userView(user)];
};

const getProfile = (api: Api): Handler => (call) => [200, {
  profile: api.profile(api.userNamed(call.params[0]), call.viewer),
}];

const follow = (api: Api, on: boolean): Handler => (call) => {
  const viewer = api.signedIn(call);
  const user = api.userNamed(call.params[0]);
  if (on) viewer.following.add(user.username);
  else viewer.following.delete(user.username);
  return [200, { profile: api.profile(user, viewer) }];
};

// ---- articles ----

const page = (api: Api, list: Article[], call: Call): [number, unknown] => {
  const limit = Number(call.query.get("limit") ?? 20);
  const offset = Number(call.query.get("offset") ?? 0);
  if (!Number.isInteger(limit) || !Number.isInteger(offset) || limit < 0 || offset < 0) {
    throw invalid("limit", "must be a non-negative integer");
  }
  const sorted = list.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return [200, {
    articles: sorted.slice(offset, offset + limit).map((a) => api.article(a, call.viewer)),
    articlesCount: sorted.length,
  }];
};

const listArticles = (api: Api): Handler => (call) => {
  const { query } = call;
  const tag = query.get("tag"), author = query.get("author"), fan = query.get("favorited");
  const list = [...api.articles.values()].filter((a) =>
    (tag === null || a.tagList.includes(tag)) &&
    (author === null || a.author === author) &&
    (fan === null || a.favoritedBy.has(fan))
  );
  return page(api, list, call);
};

const feed = (api: Api): Handler => (call) => {
  const viewer = api.signedIn(call);
  const list = [...api.articles.values()].filter((a) => viewer.following.has(a.author));
  return page(api, list, call);
};

const tagList = (value: unknown): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((t) => typeof t !== "string")) {
    throw invalid("tagList", "must be a list of strings");
  }
  return [...new Set(value as string[])].sort();
};

const createArticle = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const input = part(call.body, "article");
  const title = text(input.title, "title");
  const at = now();
  const article: Article = {
    slug: slugOf(title),
    title,
    description: text(input.description, "description"),
    body: text(input.body, "body"),
    tagList: tagList(input.tagList),
    createdAt: at,
    updatedAt: at,
    author: user.username,
    favoritedBy: new Set(),
  };
  api.articles.set(article.slug, article);
  return [201, { article: api.article(article, user) }];
};

const getArticle = (api: Api): Handler => (call) => [200, {
  article: api.article(api.articleAt(call.params[0]), call.viewer),
}];

const updateArticle = (api: Api): Handler => (call) => {
  const article = api.ownArticle(call);
  const input = part(call.body, "article");
  for (const key of ["title", "description", "body"] as const) {
    if (key in input) article[key] = text(input[key], key);
  }
  if ("tagList" in input) article.tagList = tagList(input.tagList);
  article.updatedAt = now();
  return [200, { article: api.article(article, call.viewer) }];
};

const deleteArticle = (api: Api): Handler => (call) => {
  const article = api.ownArticle(call);
  api.articles.delete(article.slug);
  api.comments = api.comments.filter((c) => c.article !== article.slug);
  return [204, null];
};

const favorite = (api: Api, on: boolean): Handler => (call) => {
  const viewer = api.signedIn(call);
  const article = api.articleAt(call.params[0]);
  if (on) article.favoritedBy.add(viewer.username);
  else article.favoritedBy.delete(viewer.username);
  return [200, { article: api.article(article, viewer) }];
};

// ---- comments and tags ----

const listComments = (api: Api): Handler => (call) => {
  const slug = api.articleAt(call.params[0]).slug;
  const list = api.comments.filter((c) => c.article === slug);
  return [200, { comments: list.map((c) => api.comment(c, call.viewer)) }];
};

const addComment = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const slug = api.articleAt(call.params[0]).slug;
  const at = now();
  const comment: Comment = {
    id: api.nextComment++,
    article: slug,
    body: text(part(call.body, "comment").body, "body"),
    author: user.username,
    createdAt: at,
    updatedAt: at,
  };
  api.comments.push(comment);
  return [201, { comment: api.comment(comment, user) }];
};

const deleteComment = (api: Api): Handler => (call) => {
  const user = api.signedIn(call);
  const slug = api.articleAt(call.params[0]).slug;
  const id = Number(call.params[1]);
  const comment = api.comments.find((c) => c.article === slug && c.id === id);
  if (!comment) throw notFound("comment");
  if (comment.author !== user.username) {
    throw new Reply(403, { errors: { comment: ["forbidden"] } });
  }
  api.comments = api.comments.filter((c) => c !== comment);
  return [204, null];
};

const tags = (api: Api): Handler => () => [200, {
  tags: [...new Set([...api.articles.values()].flatMap((a) => a.tagList))].sort(),
}];

/** The routes: method, a path pattern whose groups are the params, the handler. */
export function routes(api: Api): [string, RegExp, Handler][] {
  const seg = "([^/]+)";
  const at = (path: string) => new RegExp(`^/api${path.replaceAll(":p", seg)}$`);
  return [
    ["POST", at("/users"), register(api)],
    ["POST", at("/users/login"), login(api)],
    ["GET", at("/user"), currentUser(api)],
    ["PUT", at("/user"), updateUser(api)],
    ["GET", at("/profiles/:p"), getProfile(api)],
    ["POST", at("/profiles/:p/follow"), follow(api, true)],
    ["DELETE", at("/profiles/:p/follow"), follow(api, false)],
    ["GET", at("/articles"), listArticles(api)],
    ["GET", at("/articles/feed"), feed(api)],
    ["POST", at("/articles"), createArticle(api)],
    ["GET", at("/articles/:p"), getArticle(api)],
    ["PUT", at("/articles/:p"), updateArticle(api)],
    ["DELETE", at("/articles/:p"), deleteArticle(api)],
    ["POST", at("/articles/:p/favorite"), favorite(api, true)],
    ["DELETE", at("/articles/:p/favorite"), favorite(api, false)],
    ["GET", at("/articles/:p/comments"), listComments(api)],
    ["POST", at("/articles/:p/comments"), addComment(api)],
    ["DELETE", at("/articles/:p/comments/:p"), deleteComment(api)],
    ["GET", at("/tags"), tags(api)],
  ];
}
