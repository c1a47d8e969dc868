import { ErrorBox } from "../layout";
import { UI_PATH } from "../session";

/** The one place the API key is entered; it is kept for the session (cookie). */
export function LoginPage(props: { next: string; failed: boolean }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>sign in · memstream</title>
      </head>
      <body style="font:14px system-ui,sans-serif;max-width:420px;margin:80px auto">
        <h1 style="font-size:20px">memstream stream browser</h1>
        {props.failed && <ErrorBox code="unauthorized" message="unknown API key" />}
        <form method="post" action={`${UI_PATH}/login`}>
          <input type="hidden" name="next" value={props.next} />
          <label>
            API key (one of MEMSTREAM_API_KEYS)
            <br />
            <input name="key" type="password" autocomplete="current-password" style="width:100%" required />
          </label>
          <p>
            <button type="submit">Sign in</button>
          </p>
        </form>
      </body>
    </html>
  );
}
