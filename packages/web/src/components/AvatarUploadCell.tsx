import { RightOutline } from 'antd-mobile-icons';
import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from './feedback';

interface AvatarUploadCellProps {
  title: string;
  /** The picture now, as the row shows it. */
  avatar: ReactNode;
  /** The file picker's name for screen readers (更换头像). */
  changeLabel: string;
  /** Sends the image chosen; settles once the new picture is in (a failure the request layer has shown). */
  upload: (file: File) => Promise<unknown>;
  /** Said once it is. */
  updatedText: string;
}

/** A row with a picture (mine, a group's, a robot's), tapped to choose an image and upload it in its place. */
export function AvatarUploadCell({ title, avatar, changeLabel, upload, updatedText }: AvatarUploadCellProps) {
  const { t } = useTranslation();
  const handleFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      feedback.toast(t('common.chooseImage'));
      return;
    }
    try {
      await upload(file);
      feedback.toast(updatedText);
    } catch {
      // The request layer has shown why.
    }
  };
  return (
    <li className="avatar-upload">
      <label className="cell cell-action">
        <span className="cell-title">{title}</span>
        {avatar}
        <RightOutline className="cell-arrow" aria-hidden="true" />
        <input type="file" accept="image/*" aria-label={changeLabel} onChange={(e) => void handleFile(e)} />
      </label>
    </li>
  );
}
