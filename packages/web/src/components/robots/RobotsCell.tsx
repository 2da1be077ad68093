import { useTranslation } from 'react-i18next';
import { groupPath } from '../../nav/paths';
import { Cell } from '../Cell';
import { useGroupRobots } from './use-robots';

/** 群机器人 on a group's info page, for every member: how many, and the page listing them. */
export function RobotsCell({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const { data } = useGroupRobots(groupId);
  return (
    <Cell title={t('robots.title')} value={data ? String(data.length) : undefined} to={groupPath('robots', groupId)} />
  );
}
