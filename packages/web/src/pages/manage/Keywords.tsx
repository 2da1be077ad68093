import {
  KEYWORD_IMPORT_TEXT_MAX,
  KEYWORD_LIST_NAME_MAX,
  KEYWORD_TEST_TEXT_MAX,
  KEYWORDS_PER_LIST_MAX,
  type KeywordActionName,
  type KeywordList,
  type KeywordTestResult,
} from '@sparrow/protocol';
import { ExclamationShieldOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import type { ManageT } from './i18n';
import { usePaged, useWhole } from './paged';
import { ListState, PagedRows, RenameDeleteActions } from './parts';

const ACTIONS: readonly KeywordActionName[] = ['refuse', 'replace', 'review'];

/** The keyword lists (one short list, not paged), asked again on `reload`. */
const useKeywordLists = () => useWhole('manageKeywordLists');

/** The lines of an import that hold a word: what the bound counts. */
const linesOf = (text: string) => text.split(/\r?\n/).filter((l) => l.trim() !== '').length;

/** A list's words: a page of them with removal, and adding words one a line (an import is the same). */
function ListWords({ list, t, onChanged }: { list: KeywordList; t: ManageT; onChanged: () => void }) {
  const [filter, setFilter] = useState('');
  const words = usePaged('manageKeywordWords', { list_id: list.id, keywords: filter });
  const [text, setText] = useState('');
  const lines = linesOf(text);
  const tooMany = lines > KEYWORDS_PER_LIST_MAX || list.word_count + lines > KEYWORDS_PER_LIST_MAX;

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (tooMany) return;
    try {
      const done = await api.manageKeywordAdd({ list_id: list.id, words: text }, { loading: true, quiet: true });
      feedback.toast(t('keywords.added', { added: done.added, existing: done.existing }));
      if (done.invalid.length)
        await feedback.alert({
          title: t('keywords.invalidTitle'),
          content: t('keywords.invalid', { words: done.invalid.slice(0, 20).join('、') }),
          confirmText: t('common.close'),
        });
      setText('');
      words.reload();
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setText((await file.text()).slice(0, KEYWORD_IMPORT_TEXT_MAX));
  };
  const remove = async (id: number, word: string) => {
    try {
      await api.manageKeywordRemove({ list_id: list.id, ids: [id] }, { quiet: true });
      feedback.toast(t('keywords.removed', { word }));
      words.reload();
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };

  return (
    <div className="manage-members">
      <form className="manage-form" onSubmit={(e) => void add(e)}>
        <label className="manage-field">
          <span>{t('keywords.addWords')}</span>
          <textarea
            value={text}
            rows={4}
            maxLength={KEYWORD_IMPORT_TEXT_MAX}
            placeholder={t('keywords.addPlaceholder')}
            aria-describedby={`kw-syntax-${list.id}`}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <p className="manage-hint" id={`kw-syntax-${list.id}`}>
          {t('keywords.syntax', { max: KEYWORDS_PER_LIST_MAX })}
        </p>
        <label className="manage-field">
          <span>{t('keywords.importFile')}</span>
          <input type="file" accept=".txt,text/plain" onChange={(e) => void readFile(e.target.files?.[0])} />
        </label>
        {tooMany && (
          <p className="manage-hint" role="alert">
            {t('keywords.tooMany', { max: KEYWORDS_PER_LIST_MAX })}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={lines === 0 || tooMany}>
          {t('keywords.addButton', { count: lines })}
        </button>
      </form>
      <form className="manage-form manage-inline" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="manage-field">
          <span>{t('keywords.findWord')}</span>
          <input type="search" value={filter} maxLength={100} onChange={(e) => setFilter(e.target.value)} />
        </label>
      </form>
      <PagedRows
        list={words}
        label={t('keywords.wordsOf', { name: list.name })}
        pager="several"
        keep
        empty={{
          icon: <ExclamationShieldOutline />,
          title: t('keywords.noWords'),
          description: t('keywords.noWordsDesc'),
        }}
        t={t}
      >
        {words.items.map((w) => (
          <li key={w.id} className="manage-row">
            <div className="manage-row-main">
              <p className="manage-row-title">{w.word}</p>
            </div>
            <div className="manage-row-actions">
              <button
                type="button"
                className="button button-danger"
                aria-label={t('keywords.removeWord', { word: w.word })}
                onClick={() => void remove(w.id, w.word)}
              >
                {t('keywords.remove')}
              </button>
            </div>
          </li>
        ))}
      </PagedRows>
    </div>
  );
}

/** One list: its name, action and switch, its words when opened, rename and delete. */
function ListRow({ list, t, onChanged }: { list: KeywordList; t: ManageT; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const update = async (patch: { action?: KeywordActionName; enabled?: number }) => {
    try {
      await api.manageKeywordListUpdate({ id: list.id, ...patch }, { quiet: true });
      feedback.toast(t('common.done'));
      onChanged();
    } catch {
      // The server's message was shown.
    }
  };
  return (
    <li className="manage-row">
      <div className="manage-row-main">
        <p className="manage-row-title">
          {list.name}{' '}
          <span className={list.enabled ? 'manage-tag' : 'manage-tag manage-tag-off'}>
            {list.enabled ? t('keywords.on') : t('keywords.off')}
          </span>
        </p>
        <p className="manage-row-sub">
          {t(`keywords.action.${list.action}`)} · {t('keywords.count', { count: list.word_count })}
        </p>
      </div>
      <RenameDeleteActions
        texts="keywords"
        name={list.name}
        maxLength={KEYWORD_LIST_NAME_MAX}
        confirmDelete={t('keywords.confirmDelete', { name: list.name, count: list.word_count })}
        rename={(name) => api.manageKeywordListUpdate({ id: list.id, name }, { quiet: true })}
        remove={() => api.manageKeywordListDel({ id: list.id }, { quiet: true })}
        onChanged={onChanged}
        t={t}
      >
        <label className="manage-field">
          <span>{t('keywords.actionLabel')}</span>
          <select
            value={list.action}
            aria-label={t('keywords.actionOf', { name: list.name })}
            onChange={(e) => void update({ action: e.target.value as KeywordActionName })}
          >
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`keywords.action.${a}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-default"
          aria-expanded={open}
          aria-label={t('keywords.wordsOf', { name: list.name })}
          onClick={() => setOpen(!open)}
        >
          {t('keywords.words')}
        </button>
        <button
          type="button"
          className="button button-default"
          aria-label={t(list.enabled ? 'keywords.disableTitle' : 'keywords.enableTitle', { name: list.name })}
          onClick={() => void update({ enabled: list.enabled ? 0 : 1 })}
        >
          {list.enabled ? t('keywords.disable') : t('keywords.enable')}
        </button>
      </RenameDeleteActions>
      {open && <ListWords list={list} t={t} onChanged={onChanged} />}
    </li>
  );
}

/** "测试一段文字": what the lists now make of a text, nothing stored. */
function TestBox({ t }: { t: ManageT }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<KeywordTestResult | null>(null);
  const test = async (e: FormEvent) => {
    e.preventDefault();
    try {
      setResult(await api.manageKeywordTest({ text }, { quiet: true }));
    } catch {
      // The server's message was shown.
    }
  };
  return (
    <section className="manage-section" aria-labelledby="manage-kw-test">
      <h2 className="manage-section-title" id="manage-kw-test">
        {t('keywords.test')}
      </h2>
      <form className="manage-form" onSubmit={(e) => void test(e)}>
        <label className="manage-field">
          <span>{t('keywords.testText')}</span>
          <textarea
            value={text}
            rows={3}
            required
            maxLength={KEYWORD_TEST_TEXT_MAX}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary">
          {t('keywords.testButton')}
        </button>
      </form>
      {result && (
        <div className="manage-card" role="status">
          <p className="manage-row-title">
            {result.action ? t(`keywords.verdict.${result.action}`) : t('keywords.verdict.none')}
          </p>
          {result.words.length > 0 && (
            <p className="manage-row-sub">{t('keywords.found', { words: result.words.join('、') })}</p>
          )}
          {result.action !== 'refuse' && result.replaced !== text && (
            <p className="manage-notice-text">{t('keywords.storedAs', { text: result.replaced })}</p>
          )}
        </div>
      )}
    </section>
  );
}

/** 敏感词: keyword lists, each with an action, their words and imports, and a test box. */
export function Keywords({ t }: { t: ManageT; locale: string }) {
  const lists = useKeywordLists();
  const [name, setName] = useState('');
  const [action, setAction] = useState<KeywordActionName>('refuse');
  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const made = await api.manageKeywordListCreate({ name, action }, { loading: true, quiet: true });
      feedback.toast(t('keywords.created', { name: made.name }));
      setName('');
      lists.reload();
    } catch {
      // The server's message was shown.
    }
  };
  return (
    <>
      <section className="manage-section" aria-labelledby="manage-kw-create">
        <h2 className="manage-section-title" id="manage-kw-create">
          {t('keywords.create')}
        </h2>
        <p className="manage-hint">{t('keywords.intro')}</p>
        <form className="manage-form" onSubmit={(e) => void create(e)}>
          <label className="manage-field">
            <span>{t('keywords.name')}</span>
            <input value={name} required maxLength={KEYWORD_LIST_NAME_MAX} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="manage-field">
            <span>{t('keywords.actionLabel')}</span>
            <select value={action} onChange={(e) => setAction(e.target.value as KeywordActionName)}>
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {t(`keywords.action.${a}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button-primary">
            {t('keywords.create')}
          </button>
        </form>
      </section>
      <section className="manage-section" aria-labelledby="manage-kw-lists">
        <h2 className="manage-section-title" id="manage-kw-lists">
          {t('keywords.lists')}
        </h2>
        {lists.items.length > 0 ? (
          // Kept while a change reloads the lists, so that an open list's words stay open.
          <ul className="manage-list">
            {lists.items.map((l) => (
              <ListRow key={`${l.id}:${l.name}:${l.action}:${l.enabled}`} list={l} t={t} onChanged={lists.reload} />
            ))}
          </ul>
        ) : (
          <ListState
            status={lists.status === 'ready' ? 'empty' : lists.status}
            empty={{
              icon: <ExclamationShieldOutline />,
              title: t('keywords.empty'),
              description: t('keywords.emptyDesc'),
            }}
            t={t}
            onRetry={lists.reload}
          />
        )}
      </section>
      <TestBox t={t} />
    </>
  );
}
