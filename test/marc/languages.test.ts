// The MARC Code List for Languages: every code named, discontinued codes kept apart and pointing at
// a current code, and languageName reading names from it (and from the runtime for other locales).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageName } from '../../src/bibs/codes.ts';
import { MARC_LANGUAGES, marcLanguageName, OBSOLETE_MARC_LANGUAGES } from '../../src/marc/languages.ts';

describe('MARC language list', () => {
  it('names every current and discontinued code, and no code is both', () => {
    const current = Object.entries(MARC_LANGUAGES);
    const obsolete = Object.entries(OBSOLETE_MARC_LANGUAGES);
    assert.ok(current.length >= 480, `${current.length} current codes`);
    assert.ok(obsolete.length >= 30, `${obsolete.length} discontinued codes`);
    for (const [code, name] of current) {
      assert.match(code, /^[a-z]{3}$/);
      assert.ok(name.trim() !== '' && name === name.trim(), code);
      assert.equal(languageName(code), name, code);
    }
    for (const [code, { name, replacedBy }] of obsolete) {
      assert.match(code, /^[a-z]{3}$/);
      assert.ok(!(code in MARC_LANGUAGES), `${code} is current and discontinued`);
      assert.ok(name.trim() !== '', code);
      assert.equal(languageName(code), name, code);
      if (replacedBy !== undefined) assert.ok(replacedBy in MARC_LANGUAGES, `${code} replaced by unknown ${replacedBy}`);
    }
  });

  it("gives the list's names: current, collective and discontinued", () => {
    assert.equal(languageName('eng'), 'English');
    assert.equal(languageName('fre'), 'French');
    assert.equal(languageName('rus'), 'Russian');
    assert.equal(languageName('grc'), 'Greek, Ancient (to 1453)');
    assert.equal(languageName('afa'), 'Afroasiatic (Other)');
    assert.equal(languageName('zxx'), 'No linguistic content');
    for (const [code, name] of [
      ['esk', 'Eskimo languages'],
      ['far', 'Faroese'],
      ['gae', 'Scottish Gaelic'],
      ['iri', 'Irish'],
      ['mla', 'Malagasy'],
      ['sho', 'Shona'],
      ['tag', 'Tagalog'],
      ['tar', 'Tatar'],
      ['scc', 'Serbian'],
      ['scr', 'Croatian'],
      ['mol', 'Moldavian'],
      ['cam', 'Khmer'],
      ['esp', 'Esperanto'],
      ['eth', 'Ethiopic'],
      ['gag', 'Galician'],
      ['gua', 'Guarani'],
      ['int', 'Interlingua (International Auxiliary Language Association)'],
      ['kus', 'Kusaie'],
      ['lan', 'Occitan (post 1500)'],
      ['lap', 'Sami'],
      ['max', 'Manx'],
      ['sao', 'Samoan'],
      ['snh', 'Sinhalese'],
      ['sso', 'Sotho'],
      ['swz', 'Swazi'],
      ['tsw', 'Tswana'],
    ])
      assert.equal(languageName(code!), name, code);
  });

  it('shows a code the list lacks as the code, in every locale', () => {
    assert.equal(marcLanguageName('xyz'), undefined);
    assert.equal(languageName('xyz'), 'xyz');
    assert.equal(languageName('qqq', 'fr'), 'qqq');
    assert.equal(marcLanguageName('toString'), undefined, 'no name from the object prototype');
  });

  it("names codes in other locales by the runtime, a discontinued code as its replacement's", () => {
    assert.equal(languageName('eng', 'fr'), 'anglais');
    assert.equal(languageName('ger', 'fr'), 'allemand');
    assert.equal(languageName('tag', 'fr'), languageName('tgl', 'fr'));
    assert.notEqual(languageName('tag', 'fr'), 'tag');
    // No runtime name for a group the runtime does not know: the MARC list's English name.
    assert.equal(languageName('esk', 'fr'), 'Eskimo languages');
  });
});
