// Folding, words, stems and queries: the pieces the search index and the search box share.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../src/search/query.ts';
import { fold, isbn13, stem, words } from '../../src/search/text.ts';

describe('search text', () => {
  it('folds case and diacritics, spelling out letters that do not decompose', () => {
    assert.equal(fold('Émile Zola'), 'emile zola');
    assert.equal(fold('Straße'), 'strasse');
    assert.equal(fold('Søren Kierkegaard'), 'soren kierkegaard');
    assert.equal(fold('Łódź'), 'lodz');
    assert.equal(fold('Æsop Œuvres Þór'), 'aesop oeuvres thor');
    assert.equal(fold('Ё'), 'е', 'Cyrillic kept, its diaeresis folded');
    assert.equal(fold('Ἰλιάς'), 'ιλιασ', 'Greek kept, its accents and breathings folded, final sigma as sigma');
    assert.equal(fold('ΟΔΥΣΣΕΙΑΣ'), fold('Οδύσσειας'));
    assert.equal(fold('Толстой'), 'толстой', 'й stays a letter of its own');
  });

  it('splits into words on anything that is not a letter or a digit', () => {
    assert.deepEqual(words('Pride and prejudice / by Jane Austen.'), ['pride', 'and', 'prejudice', 'by', 'jane', 'austen']);
    assert.deepEqual(words('Война и мир'), ['война', 'и', 'мир']);
    assert.deepEqual(words("L'Étranger — 1942"), ['l', 'etranger', '1942']);
    assert.deepEqual(words('  '), []);
  });

  it('folds Hebrew points and Arabic vowel marks and tatweel, keeping kana voicing and Hangul syllables', () => {
    assert.equal(fold('סֵפֶר הַתּוֹלָדוֹת'), 'ספר התולדות');
    assert.equal(fold('كِتَـــابُ'), 'كتاب');
    assert.equal(fold('ガイド'), 'ガイド', 'が is not か');
    assert.equal(fold('ｶﾞｲﾄﾞ'), 'ガイド', 'half-width kana as full-width');
    assert.equal(fold('한국의 역사'), '한국의 역사', 'syllables, not their letters');
  });

  it('folds Arabic letters written one way or another as Arabic search engines do', () => {
    const cases: [string, string, string][] = [
      ['أحمد إبراهيم آمنة', 'احمد ابراهيم امنه', 'alef with hamza or madda as alef, teh marbuta as heh'],
      ['ٱلله', 'الله', 'alef wasla as alef'],
      ['على مستشفى', 'علي مستشفي', 'alef maksura as yeh'],
      ['مسؤول رئيس', 'مسوول رييس', 'hamza on waw and yeh dropped'],
      ['کتاب فارسی', 'كتاب فارسي', 'Persian keheh and yeh as Arabic kaf and yeh'],
      ['ہمارا خانۀ', 'همارا خانه', 'heh goal and heh with yeh above as heh'],
      ['ﻣﺪﺭﺳﺔ', 'مدرسه', 'presentation forms as their letters'],
    ];
    for (const [text, folded, why] of cases) assert.equal(fold(text), folded, why);
  });

  it('folds traditional Chinese characters to simplified ones, each character to one that folds to itself', () => {
    assert.equal(fold('傲慢與偏見'), fold('傲慢与偏见'));
    assert.equal(fold('圖書館學'), '图书馆学');
    assert.deepEqual(words('中國歷史'), words('中国历史'));
    assert.equal(fold('薴'), fold('苧'), 'a simplified form that is itself converted is followed to the end');
    assert.equal(fold(fold('薴')), fold('薴'));
    assert.equal(fold('日本の歴史'), '日本の歴史', 'a Japanese form the table does not list stays');
    assert.equal(fold('\uf900'), fold('\u8c48'), 'a compatibility ideograph as its unified one');
  });

  it('splits Chinese, Japanese and Korean into overlapping pairs of characters, a lone character into itself', () => {
    assert.deepEqual(words('图书馆'), ['图书', '书馆']);
    assert.deepEqual(words('历史'), ['历史']);
    assert.deepEqual(words('理智　与　情感'), ['理智', '与', '情感']);
    assert.deepEqual(words('日本の歴史'), ['日本', '本の', 'の歴', '歴史']);
    assert.deepEqual(words('한국의 역사'), ['한국', '국의', '역사']);
    assert.deepEqual(words('中文Windows 3.1版'), ['中文', 'windows', '3', '1', '版']);
    assert.deepEqual(words('𠀀𠀁𠀂'), ['𠀀𠀁', '𠀁𠀂'], 'by character, not by UTF-16 unit');
  });

  it('reads a run of CJK characters as a phrase of its pairs, and two characters as one word', () => {
    assert.deepEqual(parseQuery('中国历史').clauses, [{ alternatives: [['中国', '国历', '历史']], optional: false }]);
    assert.deepEqual(parseQuery('历史').clauses, [{ alternatives: [['历史']], optional: false }]);
  });

  it('stems English plurals and -ing and -ed forms as Snowball does, and keeps derivations', () => {
    const cases: [string, string][] = [
      ['histories', 'history'],
      ['cats', 'cat'],
      ['boxes', 'box'],
      ['churches', 'church'],
      ['glass', 'glass'],
      ['bus', 'bus'],
      ['analysis', 'analysis'],
      ['famous', 'famous'],
      ['war', 'war'],
      ['мир', 'мир'],
      ['is', 'is'],
      ['learning', 'learn'],
      ['learned', 'learn'],
      ['hoping', 'hope'],
      ['hopping', 'hop'],
      ['stopped', 'stop'],
      ['created', 'create'],
      ['used', 'use'],
      ['agreed', 'agree'],
      ['need', 'need'],
      ['exceedingly', 'exceed'],
      ['playing', 'play'],
      ['crying', 'cry'],
      ['ying', 'ying'],
      ['communed', 'commune'],
      ['studied', 'study'],
      ['studying', 'study'],
      ['tied', 'tie'],
      ['dying', 'die'],
      ['buildings', 'build'],
      ['proceedings', 'proceed'],
      ['sing', 'sing'],
      ['thing', 'thing'],
      ['string', 'string'],
      ['innings', 'inning'],
      ['news', 'news'],
      ['organization', 'organization'],
      ['university', 'university'],
    ];
    for (const [word, expected] of cases) assert.equal(stem(word), expected, word);
  });

  it('reads ISBN-10 and ISBN-13, with or without hyphens, as the same 13 digits', () => {
    assert.equal(isbn13('0-14-143951-3'), '9780141439518');
    assert.equal(isbn13('978-0-14-143951-8'), '9780141439518');
    assert.equal(isbn13('9780141439518'), '9780141439518');
    assert.equal(isbn13('080442957X'), '9780804429573');
    assert.equal(isbn13('history'), undefined);
  });
});

describe('search queries', () => {
  const alt = (text: string) => parseQuery(text).clauses.map((c) => [c.alternatives.map((a) => a.join(' ')), c.optional]);

  it('requires every word, making stop words optional unless they are all there is', () => {
    assert.deepEqual(alt('history of France'), [
      [['history'], false],
      [['of'], true],
      [['france'], false],
    ]);
    assert.deepEqual(
      alt('the who'),
      [
        [['the'], true],
        [['who'], false],
      ],
      '"who" is not a stop word: it must match',
    );
    assert.deepEqual(alt('to be'), [
      [['to'], false],
      [['be'], false],
    ]);
    assert.deepEqual(
      alt('to be or not to be').every(([, optional]) => optional === false),
      true,
    );
  });

  it('reads quoted phrases, exclusions and OR', () => {
    assert.deepEqual(alt('"pride and prejudice" austen'), [
      [['pride and prejudice'], false],
      [['austen'], false],
    ]);
    assert.deepEqual(parseQuery('dickens -christmas -"bleak house"').excluded, [['christmas'], ['bleak', 'house']]);
    assert.deepEqual(alt('cats OR dogs training'), [
      [['cats', 'dogs'], false],
      [['training'], false],
    ]);
    assert.deepEqual(alt('Jean-Paul Sartre'), [
      [['jean paul'], false],
      [['sartre'], false],
    ]);
  });

  it('never fails: odd input gives a query of what words there are', () => {
    assert.deepEqual(alt('"unclosed phrase'), [[['unclosed phrase'], false]]);
    assert.deepEqual(parseQuery('OR OR -').clauses, []);
    assert.deepEqual(alt('-'), []);
    assert.deepEqual(alt('C++ & C#'), [
      [['c'], false],
      [['c'], false],
    ]);
  });
});
