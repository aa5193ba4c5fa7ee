/** The `post:` step's entry point: everything happens in post(). */
import { post } from "./post.ts";

await post();
