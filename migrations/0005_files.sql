CREATE TABLE `file_links_table` (
	`id` text PRIMARY KEY NOT NULL,
	`fileId` integer NOT NULL,
	`expiresAt` text NOT NULL,
	`maxDownloads` integer,
	`downloads` integer DEFAULT 0 NOT NULL,
	`revokedAt` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`fileId`) REFERENCES `files_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `file_links_file_idx` ON `file_links_table` (`fileId`,`createdAt`);--> statement-breakpoint
CREATE TABLE `files_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`userId` integer NOT NULL,
	`originalName` text NOT NULL,
	`size` integer NOT NULL,
	`contentType` text NOT NULL,
	`etag` text NOT NULL,
	`visibility` text DEFAULT 'public' NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_key_unique` ON `files_table` (`key`);--> statement-breakpoint
CREATE INDEX `files_user_id_idx` ON `files_table` (`userId`,`id`);--> statement-breakpoint
CREATE TABLE `pending_erasures_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`erasureId` text NOT NULL,
	`key` text NOT NULL,
	`r2UploadId` text
);
--> statement-breakpoint
CREATE INDEX `pending_erasures_erasure_idx` ON `pending_erasures_table` (`erasureId`,`id`);--> statement-breakpoint
CREATE TABLE `storage_reservations_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`key` text NOT NULL,
	`bytes` integer NOT NULL,
	`expiresAt` text NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `storage_reservations_user_idx` ON `storage_reservations_table` (`userId`,`expiresAt`);--> statement-breakpoint
CREATE INDEX `storage_reservations_expires_at_idx` ON `storage_reservations_table` (`expiresAt`);--> statement-breakpoint
CREATE TABLE `storage_usage_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`files` integer NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TRIGGER `storage_usage_after_insert` AFTER INSERT ON `files_table` BEGIN
	INSERT INTO `storage_usage_table` (`userId`, `bytes`, `files`) VALUES (NEW.`userId`, NEW.`size`, 1)
	ON CONFLICT (`userId`) DO UPDATE SET `bytes` = `bytes` + excluded.`bytes`, `files` = `files` + 1;
END;
--> statement-breakpoint
-- Never inserts: a file deleted by its user's cascade must not bring the user's row back. The row
-- goes when its last file does, so it exists only while the user has files.
CREATE TRIGGER `storage_usage_after_delete` AFTER DELETE ON `files_table` BEGIN
	UPDATE `storage_usage_table` SET `bytes` = `bytes` - OLD.`size`, `files` = `files` - 1
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `storage_usage_table` WHERE `userId` = OLD.`userId` AND `files` = 0;
END;
--> statement-breakpoint
-- Resumable uploads already under way hold their room from here on: the declared size, or the parts
-- received so far; completing one then records it like any new upload.
INSERT INTO `storage_reservations_table` (`id`, `userId`, `key`, `bytes`, `expiresAt`)
SELECT `u`.`id`, `u`.`userId`, `u`.`key`,
	COALESCE(`u`.`size`, (SELECT sum(`p`.`size`) FROM `upload_parts_table` `p` WHERE `p`.`uploadId` = `u`.`id`), 0),
	`u`.`expiresAt`
FROM `uploads_table` `u`;
