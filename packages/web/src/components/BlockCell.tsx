import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { blocks } from '../stores/blocks';
import { CellGroup, SwitchCell } from './Cell';

interface Props {
  userId: number;
  /** Whether I blocked them, as the profile already read says; without it the profile is read here. */
  blocked?: 0 | 1;
}

/**
 * 加入黑名单: the switch of a person's profile and of a private chat's info. Turning it on asks
 * first; it follows changes made on this page, elsewhere here and on my other devices.
 */
export function BlockCell({ userId, blocked }: Props) {
  const { t } = useTranslation();
  const [on, setOn] = useState<boolean | undefined>(blocked === undefined ? undefined : blocked === 1);

  useEffect(() => {
    if (blocked !== undefined) {
      setOn(blocked === 1);
      return;
    }
    let live = true;
    api
      .getUserInfo({ user_id: userId }, { silent: true })
      .then((profile) => live && setOn(profile.blocked === 1))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [userId, blocked]);

  useEffect(
    () =>
      blocks.subscribe((data) => {
        if (data.user_id === userId) setOn(data.blocked === 1);
      }),
    [userId],
  );

  if (on === undefined) return null;
  return (
    <CellGroup>
      <SwitchCell title={t('block.switch')} checked={on} onChange={(next) => void blocks.set(userId, next)} />
    </CellGroup>
  );
}
