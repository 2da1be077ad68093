import { CloseOutline, EnvironmentOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { distanceM, formatDistance, type LatLng } from './geo';
import { mapServices } from './map-config';
import { MapView } from './MapView';
import { useGeolocation } from './use-geolocation';
import './location.css';

interface Props {
  place: LatLng & { name: string; address: string };
  onClose: () => void;
}

/** A location message opened: the place on the map, its name and address, and how far it is. */
export default function LocationViewer({ place, onClose }: Props) {
  const { t } = useTranslation();
  const services = useRef(mapServices()).current;
  const [tilesFailed, setTilesFailed] = useState(false);
  const { position } = useGeolocation();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => previous?.focus?.();
  }, []);

  const osm = `https://www.openstreetmap.org/?mlat=${place.latitude}&mlon=${place.longitude}#map=16/${place.latitude}/${place.longitude}`;
  return createPortal(
    <div
      ref={dialog}
      className="map-screen"
      role="dialog"
      aria-modal="true"
      aria-label={t('media.location.viewer', { name: place.name })}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="map-screen-map">
        <MapView
          services={services}
          initial={place}
          pin={place}
          me={position}
          label={t('media.location.map')}
          onTilesFailed={() => setTilesFailed(true)}
        />
        <button type="button" className="map-screen-close" aria-label={t('common.close')} onClick={onClose}>
          <CloseOutline aria-hidden="true" />
        </button>
        {tilesFailed && <p className="map-offline">{t('media.location.noTilesView')}</p>}
      </div>
      <div className="map-screen-card">
        <EnvironmentOutline className="map-screen-icon" aria-hidden="true" />
        <div className="map-screen-text">
          <h2 className="map-screen-name">{place.name}</h2>
          {place.address && <p className="map-screen-address">{place.address}</p>}
          <p className="map-screen-meta">
            {position && (
              <span>{t('media.location.away', { distance: formatDistance(distanceM(position, place)) })}</span>
            )}
            <span>
              {place.latitude.toFixed(5)}, {place.longitude.toFixed(5)}
            </span>
          </p>
        </div>
        <a className="map-screen-open" href={osm} target="_blank" rel="noopener noreferrer">
          {t('media.location.openMap')}
        </a>
      </div>
    </div>,
    document.body,
  );
}
