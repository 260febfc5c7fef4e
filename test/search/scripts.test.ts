// GET /v6/bibs/search in every script: linked 880 fields (the original-script form of a field)
// indexed as the field they link to, folded per script, and Chinese, Japanese and Korean split into
// pairs of characters, so a record is found by its original script and by its romanisation. Arabic
// letters written one way or another are found alike, and so are Chinese characters, simplified or
// traditional. The real records come from the shared data (a Greek record, Chinese translations of
// Austen, catalogued in either form), the rest are written here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { readMarc } from '../../src/marc/read.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { marcFile } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';
import { df, bib } from '../helpers/written-marc.ts';

/** An 880 linked to `link` ("245-01/(N"), holding `text` in $a. */
const alt = (link: string, text: string, ...more: [string, string][]): DataField => df('880', ['6', link], ['a', text], ...more);

const WRITTEN: Record<string, MarcRecord> = {
  hebrew: bib('Sefer ha-toladot', df('100', ['a', 'Levi, Yosef']), alt('245-01/(2/r', 'סֵפֶר הַתּוֹלָדוֹת'), alt('100-02/(2/r', 'לוי, יוסף')),
  russian: bib('Istorii︠a︡ Rossii', alt('245-01/(N', 'История России'), alt('250-02/(N', 'Ёлочное издание')),
  greek: bib('Ilias', alt('245-01/(S', 'Ἰλιάς')),
  arabic: bib('Kitāb al-ʻarabīyah', alt('245-01/(3/r', 'كِتَابُ الْعَرَبِيَّة')),
  // Teh marbuta, alef with hamza below, alef maksura and alef wasla; a plain alef where a query may have hamza.
  arabicVariants: bib('Madrasat Ibrāhīm', alt('245-01/(3/r', 'مدرسة إبراهيم'), alt('500-02/(3/r', 'على ٱلطريق إلى أسوان')),
  // Persian keheh and yeh, where Arabic keyboards give kaf and yeh.
  persian: bib('Kitāb-i Fārsī', alt('245-01/(3/r', 'کتاب فارسی')),
  chinese: bib('Zhongguo li shi', alt('245-01/$1', '中国历史')),
  chineseTraditional: bib('Tu shu guan xue dao lun', alt('245-01/$1', '圖書館學導論')),
  japanese: bib('Nihon no rekishi', alt('245-01/$1', '日本の歴史'), alt('500-02/$1', 'ガイドブック付き')),
  korean: bib('Hanʼguk ŭi yŏksa', alt('245-01/$1', '한국의 역사')),
  // The same word in the original script of a title and of a note: the title's weight ranks first.
  chronicleNote: bib('Notes', alt('500-01/(N', 'Летопись')),
  chronicleTitle: bib('Letopisʹ', alt('245-01/(N', 'Летопись')),
  // 880s that are not indexed: linked to a field search does not index, or with no link it can read.
  unlinked: bib(
    'Unlinked',
    alt('998-01/(N', 'Неиндексируемое'),
    df('880', ['6', '24501'], ['a', 'Искаженное']),
    df('880', ['a', 'Бессвязное']),
    alt('245-02/(N', 'Заглавие', ['c', 'Ответственность']),
  ),
};

/** The shared real records that have 880 fields, by file and position. */
async function sharedRecords(): Promise<Record<string, MarcRecord>> {
  const records: Record<string, MarcRecord> = {};
  for (const file of ['OCLC_814388508.xml', 'pride-and-prejudice-fixed.mrc']) {
    for await (const read of readMarc([readFileSync(marcFile(file))])) {
      if (read.record?.fields.some((f) => f.tag === '880')) records[`${file} ${read.position}`] = read.record;
    }
  }
  return records;
}

describe(`search in every script on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  const ids: Record<string, string> = {};
  const name = (id: string) => Object.keys(ids).find((k) => ids[k] === id) ?? id;
  /** The shared records whose 245 (or another tag) holds this text. */
  const titled = (records: Record<string, MarcRecord>, text: string, tag = '245') =>
    Object.keys(records).filter((k) =>
      records[k]!.fields.some((f) => f.tag === tag && 'subfields' in f && f.subfields.some((s) => s.value.includes(text))),
    );
  let shared: Record<string, MarcRecord>;
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    const service = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    shared = await sharedRecords();
    for (const [key, record] of Object.entries({ ...WRITTEN, ...shared })) ids[key] = await service.create({ marc: record });
    await drainQueue(t.testDb.db);
  });
  after(() => t.close());

  const found = async (text: string, index?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v6/bibs/search?text=${encodeURIComponent(text)}&limit=50${index ? `&index=${index}` : ''}`,
      headers: { authorization: reader },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ entries: { bib: { id: string } }[] }>().entries.map((e) => name(e.bib.id));
  };

  it('reads the shared records with 880 fields: one Greek, several Chinese', () => {
    assert.equal(Object.keys(shared).filter((k) => k.startsWith('OCLC')).length, 1);
    assert.ok(titled(shared, 'Ao man yu pian jian').length >= 4);
  });

  it('finds a real Greek record by its original script, with or without accents, and by its romanisation', async () => {
    const [greek] = Object.keys(shared).filter((k) => k.startsWith('OCLC'));
    assert.deepEqual(await found('αγορά'), [greek]);
    assert.deepEqual(await found('ΑΓΟΡΑ Μεσογειο'), [greek]);
    assert.deepEqual(await found('αγορα', 'title'), [greek]);
    assert.deepEqual(await found('Γιαννικουρη', 'author'), [greek], 'an 880 linked to a 700 is an author');
    assert.deepEqual(await found('agora mesogeio'), [greek]);
  });

  it('finds real Chinese records by a two-character word, by their whole title in either form, and by its romanisation', async () => {
    const romanised = [...titled(shared, 'Ao man yu pian jian')].sort();
    // Some records have the title in simplified characters, others in traditional: each form finds them all.
    const simplified = titled(shared, '傲慢与偏见', '880');
    const traditional = titled(shared, '傲慢與偏見', '880');
    assert.ok(simplified.length >= 2 && traditional.length >= 3, `${simplified.join()} | ${traditional.join()}`);
    assert.deepEqual([...simplified, ...traditional].sort(), romanised);
    for (const text of ['傲慢与偏见', '傲慢與偏見', '偏见', '偏見', 'ao man yu pian jian'])
      assert.deepEqual((await found(text)).sort(), romanised, text);
    for (const name of ['张玲', '張玲']) {
      const translator = await found(name, 'author');
      assert.ok(translator.length === 1 && simplified.includes(translator[0]!), `${name}: an 880 linked to a 700 is an author`);
    }
  });

  it('finds Hebrew, Cyrillic, Greek and Arabic by an original-script word, pointed or not, and by the romanisation', async () => {
    assert.deepEqual(await found('התולדות'), ['hebrew'], 'the query has no points, the record has');
    assert.deepEqual(await found('הַתּוֹלָדוֹת'), ['hebrew']);
    assert.deepEqual(await found('יוסף', 'author'), ['hebrew']);
    assert.deepEqual(await found('toladot'), ['hebrew']);
    assert.deepEqual(await found('ИСТОРИЯ россии'), ['russian']);
    assert.deepEqual(await found('елочное'), ['russian'], 'ё folds to е');
    assert.deepEqual(await found('istoriia rossii'), ['russian']);
    assert.deepEqual(await found('ιλιας'), ['greek'], 'no accents or breathing, and a final sigma');
    assert.deepEqual(await found('ilias'), ['greek']);
    assert.deepEqual(await found('كتاب العربية'), ['arabic'], 'the query has no vowel marks, the record has');
    assert.deepEqual(await found('kitab'), ['arabic', 'persian']);
  });

  it('finds Arabic whichever way its letters are written, in the record or in the query', async () => {
    assert.deepEqual(await found('مدرسه ابراهيم'), ['arabicVariants'], 'heh for teh marbuta, plain alef for alef with hamza');
    assert.deepEqual(await found('إبراهيم'), ['arabicVariants'], 'the query has hamza');
    assert.deepEqual(await found('"علي الطريق الي اسوان"'), ['arabicVariants'], 'yeh for alef maksura, alef for alef wasla');
    assert.deepEqual(await found('ـعلىـ'), ['arabicVariants'], 'tatweel');
    assert.deepEqual(await found('كتاب فارسي'), ['persian'], 'Arabic kaf and yeh find Persian keheh and yeh');
    assert.deepEqual(await found('کتاب العربیه'), ['arabic'], 'and the other way round');
    assert.deepEqual((await found('كتاب')).sort(), ['arabic', 'persian']);
  });

  it('finds Chinese, Japanese and Korean by a two-character word, by a longer phrase, and by the romanisation', async () => {
    assert.deepEqual(await found('历史'), ['chinese']);
    assert.deepEqual(await found('中国历史'), ['chinese']);
    assert.deepEqual(await found('历史中国'), [], 'the pairs must stand in order');
    assert.deepEqual(await found('中國歷史'), ['chinese'], 'traditional characters find simplified ones');
    assert.deepEqual(await found('图书馆学'), ['chineseTraditional'], 'and simplified characters traditional ones');
    assert.deepEqual(await found('圖書館學導論'), ['chineseTraditional']);
    assert.deepEqual(await found('zhongguo li shi'), ['chinese']);
    assert.deepEqual(await found('歴史'), ['japanese']);
    assert.deepEqual(await found('日本の歴史'), ['japanese']);
    assert.deepEqual(await found('ガイドブック'), ['japanese']);
    assert.deepEqual(await found('カイドブック'), [], 'a voiced kana is a letter of its own');
    assert.deepEqual(await found('nihon no rekishi'), ['japanese']);
    assert.deepEqual(await found('역사'), ['korean']);
    assert.deepEqual(await found('한국의 역사'), ['korean']);
    assert.deepEqual(await found('hanguk yoksa'), ['korean']);
  });

  it('weighs an 880 as the field it links to', async () => {
    assert.deepEqual(await found('летопись'), ['chronicleTitle', 'chronicleNote']);
    assert.deepEqual(await found('летопись', 'title'), ['chronicleTitle']);
    assert.deepEqual(await found('летопись', 'note'), ['chronicleNote']);
  });

  it('skips an 880 linked to a field search does not index, or with no link it can read, and subfields the field skips', async () => {
    assert.deepEqual(await found('заглавие'), ['unlinked']);
    for (const word of ['неиндексируемое', 'искаженное', 'бессвязное', 'ответственность']) assert.deepEqual(await found(word), [], word);
  });

  it('finds nothing for a word no record has, in any script', async () => {
    for (const word of ['不存在', 'несуществующий', 'ανύπαρκτο', 'אינו', '존재하지']) assert.deepEqual(await found(word), [], word);
  });
});
