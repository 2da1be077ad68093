import { CloseCircleFill, SearchOutline } from 'antd-mobile-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './lists.css';

interface Props {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** Accessible name of the field; the placeholder when not given. */
  label?: string;
  autoFocus?: boolean;
  onSubmit?: () => void;
  /** A "Cancel" button after the field (search pages). */
  onCancel?: () => void;
  inputMode?: 'search' | 'text' | 'email' | 'tel';
}

/** The grey rounded search field of WeChat's lists. */
export function SearchBar({ value, onChange, placeholder, label, autoFocus, onSubmit, onCancel, inputMode }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <form
      className="searchbar"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <label className="searchbar-field" htmlFor={id}>
        <SearchOutline className="searchbar-icon" aria-hidden="true" />
        <span className="visually-hidden">{label ?? placeholder}</span>
        <input
          id={id}
          className="searchbar-input"
          type="search"
          inputMode={inputMode ?? 'search'}
          enterKeyHint="search"
          value={value}
          placeholder={placeholder}
          autoFocus={autoFocus}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
        {value && (
          <button type="button" className="searchbar-clear" aria-label={t('common.clear')} onClick={() => onChange('')}>
            <CloseCircleFill aria-hidden="true" />
          </button>
        )}
      </label>
      {onCancel && (
        <button type="button" className="searchbar-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      )}
    </form>
  );
}

/** A tappable search field that opens a search page. */
export function SearchEntry({ label, onOpen }: { label: string; onOpen: () => void }) {
  return (
    <div className="searchbar">
      <button type="button" className="searchbar-field searchbar-entry" onClick={onOpen}>
        <SearchOutline className="searchbar-icon" aria-hidden="true" />
        <span>{label}</span>
      </button>
    </div>
  );
}
