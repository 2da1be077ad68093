import { LOCATION } from '@sparrow/protocol';
import { CheckOutline, LocationOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { feedback } from '../feedback';
import { SearchBar } from '../SearchBar';
import { formatDistance, type LatLng } from './geo';
import { DEFAULT_CENTER, mapServices } from './map-config';
import { MapView, type MapHandle } from './MapView';
import { Pin } from './Pin';
import { parsePlace, PlaceSearch, reverseUrl, type Place } from './place-search';
import { useGeolocation } from './use-geolocation';
import './location.css';

interface Props {
  onSend: (place: Place) => void;
  onClose: () => void;
  /** The confirming button's text; 发送 (send) when the place goes into a chat. */
  confirmLabel?: string;
}

/** The point under the centre pin, named by the search service or, without one, by the person. */
interface PinState {
  point: LatLng;
  status: 'resolving' | 'named' | 'unnamed';
  name: string;
  address: string;
}

const coords = (p: LatLng) => `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`;

/**
 * The location picker (docs/product.md §9): a Leaflet map whose centre pin chooses a point, keyword search
 * of places (nearby first), and the device's position refreshed every 30 s. When the map service
 * cannot be reached it still works: the map without tiles, the pin placed by hand and named here.
 */
export default function LocationPicker({ onSend, onClose, confirmLabel }: Props) {
  const { t, i18n } = useTranslation();
  const services = useRef(mapServices()).current;
  const map = useRef<MapHandle>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const center = useRef<LatLng>(DEFAULT_CENTER);
  const moved = useRef(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Place | 'pin'>('pin');
  const [manualName, setManualName] = useState('');
  const [pin, setPin] = useState<PinState>({ point: DEFAULT_CENTER, status: 'resolving', name: '', address: '' });
  const { position, status: geo } = useGeolocation(() => feedback.toast(t('media.location.noGeolocation')));

  const search = useMemo(
    () =>
      new PlaceSearch({
        fetch: (url, init) => fetch(url, init),
        searchUrl: () => services.searchUrl,
        center: () => center.current,
        language: () => i18n.language,
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      }),
    [services, i18n.language],
  );
  useEffect(() => () => search.dispose(), [search]);
  const results = useSyncExternalStore(search.subscribe, search.getState);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => previous?.focus?.();
  }, []);

  // The first fix of the device's position moves the map there, unless the person moved it.
  useEffect(() => {
    if (!position || moved.current) return;
    moved.current = true;
    center.current = position;
    map.current?.moveTo(position, LOCATION.defaultZoom);
    setPin({ point: position, status: 'resolving', name: '', address: '' });
  }, [position]);

  // Names the point under the pin once the map rests (same pause as the keyword search).
  useEffect(() => {
    if (pin.status !== 'resolving') return;
    const url = services.searchUrl ? reverseUrl(services.searchUrl, pin.point, i18n.language) : null;
    if (!url) {
      setPin((p) => (p.point === pin.point ? { ...p, status: 'unnamed' } : p));
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } })
        .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
        .then((body: unknown) => {
          const place = parsePlace(body, null);
          setPin((p) =>
            p.point === pin.point
              ? place
                ? { ...p, status: 'named', name: place.name, address: place.address }
                : { ...p, status: 'unnamed' }
              : p,
          );
        })
        .catch(() => {
          if (!controller.signal.aborted) setPin((p) => (p.point === pin.point ? { ...p, status: 'unnamed' } : p));
        });
    }, LOCATION.searchDebounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pin.point, pin.status, services.searchUrl, i18n.language]);

  const handleMoved = (point: LatLng) => {
    moved.current = true;
    center.current = point;
    setPin({ point, status: 'resolving', name: '', address: '' });
    setSelected('pin');
  };

  const choose = (place: Place) => {
    setSelected(place);
    center.current = place;
    map.current?.moveTo(place);
  };

  const locate = () => {
    if (geo === 'unsupported') {
      feedback.toast(t('media.location.noGeolocation'));
      return;
    }
    if (!position) {
      feedback.toast(t('media.location.locating'));
      return;
    }
    map.current?.moveTo(position, LOCATION.defaultZoom);
    handleMoved(position);
  };

  const pinName = pin.status === 'named' ? pin.name : manualName.trim();
  const chosen: Place | null =
    selected === 'pin'
      ? pinName
        ? { id: '', name: pinName.slice(0, 100), address: pin.address || coords(pin.point), ...pin.point }
        : null
      : selected;

  const send = () => {
    if (!chosen) {
      feedback.toast(t('media.location.nameRequired'));
      return;
    }
    onSend(chosen);
  };

  const sentinel = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !results.hasMore) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void search.loadMore();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [results.hasMore, results.places.length, search]);

  const searching = query.trim() !== '';
  return createPortal(
    <div
      ref={dialog}
      className="picker"
      role="dialog"
      aria-modal="true"
      aria-label={t('media.location.pick')}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <header className="picker-bar">
        <button type="button" className="picker-cancel" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <h2 className="picker-title">{t('media.location.title')}</h2>
        <button type="button" className="picker-send" disabled={!chosen} onClick={send}>
          {confirmLabel ?? t('chat.send')}
        </button>
      </header>
      <div className="picker-map">
        <MapView
          ref={map}
          services={services}
          initial={DEFAULT_CENTER}
          me={position}
          label={t('media.location.map')}
          onMoved={handleMoved}
          onTilesFailed={() => setTilesFailed(true)}
        />
        <Pin className="picker-pin" />
        <button type="button" className="picker-locate" aria-label={t('media.location.myPosition')} onClick={locate}>
          <LocationOutline aria-hidden="true" />
        </button>
        {tilesFailed && <p className="map-offline">{t('media.location.noTiles')}</p>}
      </div>
      <SearchBar
        value={query}
        onChange={(v) => {
          setQuery(v);
          search.setQuery(v);
        }}
        onSubmit={() => search.submit()}
        placeholder={t('media.location.search')}
      />
      <ul className="picker-list" aria-label={t('media.location.results')}>
        {!searching && (
          <li>
            <button
              type="button"
              className="picker-row"
              aria-pressed={selected === 'pin'}
              onClick={() => setSelected('pin')}
            >
              <span className="picker-row-text">
                <span className="picker-row-name">
                  {pin.status === 'named'
                    ? pin.name
                    : pin.status === 'resolving'
                      ? t('media.location.resolving')
                      : t('media.location.pinned')}
                </span>
                <span className="picker-row-address">{pin.status === 'named' ? pin.address : coords(pin.point)}</span>
              </span>
              {selected === 'pin' && <CheckOutline className="picker-check" aria-hidden="true" />}
            </button>
            {pin.status === 'unnamed' && selected === 'pin' && (
              <label className="picker-name">
                <span className="picker-name-label">{t('media.location.name')}</span>
                <input
                  className="picker-name-input"
                  value={manualName}
                  maxLength={100}
                  placeholder={t('media.location.namePlaceholder')}
                  onChange={(e) => setManualName(e.target.value)}
                />
              </label>
            )}
          </li>
        )}
        {!searching && (
          <li className="picker-note">
            {services.searchUrl ? t('media.location.dragHint') : t('media.location.noSearch')}
          </li>
        )}
        {searching &&
          results.places.map((place) => (
            <li key={place.id || `${place.latitude},${place.longitude}`}>
              <button
                type="button"
                className="picker-row"
                aria-pressed={selected !== 'pin' && selected.id === place.id}
                onClick={() => choose(place)}
              >
                <span className="picker-row-text">
                  <span className="picker-row-name">{place.name}</span>
                  <span className="picker-row-address">
                    {place.distanceM !== undefined && `${formatDistance(place.distanceM)} · `}
                    {place.address}
                  </span>
                </span>
                {selected !== 'pin' && selected.id === place.id && (
                  <CheckOutline className="picker-check" aria-hidden="true" />
                )}
              </button>
            </li>
          ))}
        {searching && results.hasMore && (
          <li ref={sentinel} className="picker-note" role="status">
            {results.loadingMore ? t('common.loading') : ''}
          </li>
        )}
        {searching && (results.status === 'waiting' || results.status === 'loading') && (
          <li className="picker-note" role="status">
            {t('media.location.searching')}
          </li>
        )}
        {searching && results.status === 'done' && results.places.length === 0 && (
          <li className="picker-note">{t('media.location.noResults')}</li>
        )}
        {searching && results.status === 'error' && (
          <li className="picker-note" role="alert">
            {t('media.location.searchFailed')}
          </li>
        )}
      </ul>
    </div>,
    document.body,
  );
}
