// The ACL extension's client: it starts `a3s-test lsp` on stdio for `.acl` files and leaves
// everything else — diagnostics, fixes, formatting, hover, completion, outline, rename — to it.
import { workspace, type ExtensionContext } from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/** The binary named by the `a3sTest.path` setting, `a3s-test` on PATH by default. */
function serverCommand(): string {
  const configured = workspace.getConfiguration('a3sTest').get<string>('path');
  return configured !== undefined && configured.trim() !== '' ? configured : 'a3s-test';
}

export async function activate(context: ExtensionContext): Promise<void> {
  // TransportKind.stdio adds `--stdio`, which `a3s-test lsp` accepts.
  const serverOptions: ServerOptions = {
    command: serverCommand(),
    args: ['lsp'],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'acl' }],
  };
  client = new LanguageClient('a3s-test', 'A3S Test', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
