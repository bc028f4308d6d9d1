// The extension ships the repository's one TextMate grammar (grammar/acl.tmLanguage.json):
// copied in at build time, never kept as a second copy in version control.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, '..', '..', '..', 'grammar', 'acl.tmLanguage.json');
const target = join(here, '..', 'syntaxes', 'acl.tmLanguage.json');
mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
