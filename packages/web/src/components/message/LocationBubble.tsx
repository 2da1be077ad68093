import type { MessageOf } from '@sparrow/protocol';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLatLng } from '../location/geo';
import { StaticMap } from '../location/StaticMap';
import './media.css';

const LocationViewer = lazy(() => import('../location/LocationViewer'));

/** A location: its name, address and a small map; a tap opens the map. */
export function LocationBubble({ message }: { message: MessageOf<'location'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { name, address, latitude, longitude } = message.extends;
  const place = { name, address, latitude, longitude };
  const valid = isLatLng(place);
  return (
    <>
      <button
        type="button"
        className="location-card"
        aria-label={t('media.location.open', { name: place.name })}
        onClick={() => setOpen(true)}
        disabled={!valid}
      >
        <span className="location-card-text">
          <span className="location-card-name">{place.name}</span>
          {place.address && <span className="location-card-address">{place.address}</span>}
        </span>
        {valid && <StaticMap point={place} width={230} height={96} />}
      </button>
      {open && (
        <Suspense fallback={null}>
          <LocationViewer place={place} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
