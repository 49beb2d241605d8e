// Starts the workspace: reads the page's public settings, then renders the app.
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { loadAuth } from "./session.ts";
import "./styles.css";

const root = createRoot(document.getElementById("root") as HTMLElement);
loadAuth()
  .then((auth) => root.render(<App auth={auth} />))
  .catch((err: unknown) =>
    root.render(
      <main className="fatal" role="alert">
        <h1>The workspace cannot start</h1>
        <p>{err instanceof Error ? err.message : "The server did not answer."} Reload the page to try again.</p>
      </main>,
    ),
  );
