// The layers' lint rules (eslint.boundaries.js) refuse each kind of boundary crossing, and pass the
// imports the layout allows: linted as if each snippet were the file it names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { boundaries } from '../../eslint.boundaries.js';

const eslint = new ESLint({
  cwd: new URL('../..', import.meta.url).pathname,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
});

async function messages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer boundaries', () => {
  it('refuses another domain’s repository, from a service, a route or an index', async () => {
    for (const file of ['src/holds/service.ts', 'src/holds/routes.ts', 'src/holds/index.ts', 'src/acquisitions/invoices/pricing.ts']) {
      const found = await messages(
        file,
        "import { getBibs } from '../bibs/repository.ts';\nimport { x } from '../search/rebuild-repository.ts';\n",
      );
      assert.equal(found.length, 2, file);
      assert.match(found[0]!, /another domain’s repository/);
    }
  });

  it('lets a domain use its own repository and another domain’s service', async () => {
    assert.deepEqual(
      await messages(
        'src/holds/service.ts',
        "import * as repo from './repository.ts';\nimport type { BibService } from '../bibs/service.ts';\n",
      ),
      [],
    );
  });

  it('refuses src/http/ and src/cli/ in rules, and allows them in a domain’s doors', async () => {
    const source = "import { errors } from '../http/errors.ts';\nimport { print } from '../cli/common.ts';\n";
    for (const file of ['src/patrons/service.ts', 'src/patrons/input.ts', 'src/holds/repository.ts']) {
      const found = await messages(file, source);
      assert.equal(found.length, 2, file);
      assert.match(found[0]!, /rules know nothing of a door/);
    }
    for (const file of ['src/patrons/routes.ts', 'src/patrons/present.ts', 'src/patrons/commands.ts', 'src/patrons/index.ts']) {
      assert.deepEqual(await messages(file, source), [], file);
    }
  });

  it('refuses a door’s own files in rules, which would reach src/http/ through them', async () => {
    const source =
      "import { presentBib } from './present.ts';\nimport { itemRoutes } from '../items/routes.ts';\nimport { x } from '../holds/commands.ts';\n";
    for (const file of ['src/bibs/service.ts', 'src/catalog/results-page.ts']) {
      const found = await messages(file, source);
      assert.equal(found.length, 3, file);
      assert.match(found[0]!, /never import a door’s file/);
    }
    // A door's files may use each other, and a rule may use a module both need.
    assert.deepEqual(await messages('src/bibs/routes.ts', source), []);
    assert.deepEqual(await messages('src/catalog/service.ts', "import { languageName } from '../bibs/codes.ts';\n"), []);
  });

  it('keeps the lowest layers free of domains and doors', async () => {
    assert.equal((await messages('src/db/list-filters.ts', "import type { IdFilter } from '../http/params.ts';\n")).length, 1);
    assert.equal((await messages('src/db/open.ts', "import { x } from '../bibs/service.ts';\n")).length, 1);
    assert.equal((await messages('src/shared/money.ts', "import { fail } from '../db/errors.ts';\n")).length, 1);
    assert.equal((await messages('src/marc/read.ts', "import { x } from '../items/from-marc.ts';\n")).length, 1);
    assert.equal((await messages('src/edifact/orders.ts', "import { x } from '../acquisitions/invoices/pricing.ts';\n")).length, 1);
    assert.deepEqual(await messages('src/edifact/balance.ts', "import { sum } from '../shared/money.ts';\n"), []);
    assert.deepEqual(
      await messages(
        'src/db/list-filters.ts',
        "import type { IdFilter } from '../shared/filters.ts';\nimport type { Config } from '../config.ts';\n",
      ),
      [],
    );
  });
});
