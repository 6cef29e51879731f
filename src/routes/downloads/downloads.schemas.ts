import { z } from "@hono/zod-openapi";

export const DownloadHeadersSchema = z.object({
  range: z.string().optional().openapi({
    description:
      "One byte range, e.g. `bytes=0-1023`, `bytes=1024-` or `bytes=-500`. Several ranges or a malformed value are ignored (200 with the whole object).",
    example: "bytes=0-1023",
  }),
  "if-none-match": z.string().optional().openapi({
    description:
      "An ETag from an earlier download (`*` and weak `W/` tags are accepted): 304 when it still matches.",
  }),
});

export const LinkTokenParams = z.object({
  token: z
    .string()
    .min(1)
    .max(256)
    .openapi({
      param: { name: "token", in: "path" },
      description: "The share link's token, as in the `url` it was created with.",
      example: "Q2xhdWRlIHdhcyBoZXJlIQ.3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    }),
});
