-- A data database (issue 42): one workspace's todos, files, change log, chats, usage and team audit per
-- owner, generated from src/db/data-schema.ts; the triggers below are hand-written, as in migrations/ (the
-- final forms of 0018_team_files.sql and 0019_team_todos.sql). No table here refers to users or teams.
CREATE TABLE `ai_usage_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`chatId` text NOT NULL,
	`kind` text NOT NULL,
	`model` text NOT NULL,
	`inputTokens` integer NOT NULL,
	`outputTokens` integer NOT NULL,
	`estimated` integer DEFAULT false NOT NULL,
	`day` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ai_usage_user_day_idx` ON `ai_usage_table` (`userId`,`day`,`outputTokens`);--> statement-breakpoint
CREATE TABLE `audit_log_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer,
	`subjectId` integer,
	`actorId` integer,
	`door` text NOT NULL,
	`credential` text,
	`ip` text,
	`requestId` text,
	`action` text NOT NULL,
	`target` text,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_org_idx` ON `audit_log_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `audit_subject_idx` ON `audit_log_table` (`subjectId`,`id`);--> statement-breakpoint
CREATE INDEX `audit_at_idx` ON `audit_log_table` (`at`);--> statement-breakpoint
CREATE TABLE `chats_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`title` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastActivityAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastMessageAt` text,
	`preview` text,
	`messageCount` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chats_user_activity_idx` ON `chats_table` (`userId`,`lastActivityAt`,`id`);--> statement-breakpoint
CREATE TABLE `deleted_files_table` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`userId` integer NOT NULL,
	`originalName` text NOT NULL,
	`size` integer NOT NULL,
	`contentType` text NOT NULL,
	`etag` text NOT NULL,
	`visibility` text NOT NULL,
	`links` text NOT NULL,
	`createdAt` text NOT NULL,
	`deletedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deleted_files_key_unique` ON `deleted_files_table` (`key`);--> statement-breakpoint
CREATE INDEX `deleted_files_user_idx` ON `deleted_files_table` (`userId`);--> statement-breakpoint
CREATE INDEX `deleted_files_org_idx` ON `deleted_files_table` (`orgId`);--> statement-breakpoint
CREATE INDEX `deleted_files_deleted_at_idx` ON `deleted_files_table` (`deletedAt`);--> statement-breakpoint
CREATE TABLE `deleted_todos_table` (
	`id` integer PRIMARY KEY NOT NULL,
	`userId` integer,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`completed` integer NOT NULL,
	`scheduleAt` text,
	`completedAt` text,
	`version` integer NOT NULL,
	`fileKeys` text NOT NULL,
	`createdAt` text NOT NULL,
	`updatedAt` text NOT NULL,
	`deletedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer,
	`createdBy` integer,
	`updatedBy` integer
);
--> statement-breakpoint
CREATE INDEX `deleted_todos_deleted_at_idx` ON `deleted_todos_table` (`deletedAt`);--> statement-breakpoint
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
	`orgId` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_key_unique` ON `files_table` (`key`);--> statement-breakpoint
CREATE INDEX `files_user_id_idx` ON `files_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `files_org_id_idx` ON `files_table` (`orgId`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys_table` (
	`userId` integer NOT NULL,
	`route` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text,
	`state` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`result` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`userId`, `route`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at_idx` ON `idempotency_keys_table` (`createdAt`);--> statement-breakpoint
CREATE TABLE `notes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`text` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notes_user_id_idx` ON `notes_table` (`userId`,`id`);--> statement-breakpoint
CREATE TABLE `org_storage_usage_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`files` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `org_todo_counts_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	`completed` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `org_todo_sync_floors_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`purgedThrough` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pending_agent_wipes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`erasureId` text NOT NULL,
	`agent` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
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
	`orgId` integer
);
--> statement-breakpoint
CREATE INDEX `storage_reservations_user_idx` ON `storage_reservations_table` (`userId`,`expiresAt`);--> statement-breakpoint
CREATE INDEX `storage_reservations_expires_at_idx` ON `storage_reservations_table` (`expiresAt`);--> statement-breakpoint
CREATE INDEX `storage_reservations_org_idx` ON `storage_reservations_table` (`orgId`,`expiresAt`);--> statement-breakpoint
CREATE TABLE `storage_usage_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`files` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `todo_attachments_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`todoId` integer NOT NULL,
	`fileKey` text NOT NULL,
	`filePath` text NOT NULL,
	`fileSize` integer NOT NULL,
	`fileHash` text NOT NULL,
	`fileName` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`todoId`) REFERENCES `todos_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `todo_attachments_todo_file_unique` ON `todo_attachments_table` (`todoId`,`fileKey`);--> statement-breakpoint
CREATE TABLE `todo_changes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer,
	`orgId` integer,
	`todoId` integer NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `todo_changes_user_id_idx` ON `todo_changes_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todo_changes_org_id_idx` ON `todo_changes_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `todo_changes_created_at_idx` ON `todo_changes_table` (`createdAt`);--> statement-breakpoint
CREATE TABLE `todo_counts_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	`completed` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `todo_sync_floors_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`purgedThrough` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `todos_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`scheduleAt` text,
	`completedAt` text,
	`version` integer DEFAULT 1 NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer,
	`createdBy` integer,
	`updatedBy` integer,
	CONSTRAINT "todos_one_owner" CHECK(("userId" IS NULL) <> ("orgId" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `todos_user_id_idx` ON `todos_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todos_user_completed_id_idx` ON `todos_table` (`userId`,`completed`,`id`);--> statement-breakpoint
CREATE INDEX `todos_org_id_idx` ON `todos_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `todos_org_completed_id_idx` ON `todos_table` (`orgId`,`completed`,`id`);--> statement-breakpoint
CREATE TABLE `upload_parts_table` (
	`uploadId` text NOT NULL,
	`partNumber` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`uploadId`, `partNumber`),
	FOREIGN KEY (`uploadId`) REFERENCES `uploads_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `uploads_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`key` text NOT NULL,
	`r2UploadId` text NOT NULL,
	`contentType` text NOT NULL,
	`partSize` integer NOT NULL,
	`size` integer,
	`expiresAt` text NOT NULL,
	`completingAt` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`orgId` integer
);
--> statement-breakpoint
CREATE INDEX `uploads_user_idx` ON `uploads_table` (`userId`);--> statement-breakpoint
CREATE INDEX `uploads_expires_at_idx` ON `uploads_table` (`expiresAt`);
--> statement-breakpoint
-- Each user's and each team's todo totals (migrations/0003_todo_counts.sql, 0019_team_todos.sql).
CREATE TRIGGER `todo_counts_after_insert` AFTER INSERT ON `todos_table` WHEN NEW.`userId` IS NOT NULL BEGIN
	INSERT INTO `todo_counts_table` (`userId`, `total`, `completed`) VALUES (NEW.`userId`, 1, NEW.`completed` <> 0)
	ON CONFLICT (`userId`) DO UPDATE SET `total` = `total` + 1, `completed` = `completed` + excluded.`completed`;
END;
--> statement-breakpoint
CREATE TRIGGER `todo_counts_after_delete` AFTER DELETE ON `todos_table` WHEN OLD.`userId` IS NOT NULL BEGIN
	UPDATE `todo_counts_table` SET `total` = `total` - 1, `completed` = `completed` - (OLD.`completed` <> 0)
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `todo_counts_table` WHERE `userId` = OLD.`userId` AND `total` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `todo_counts_after_update` AFTER UPDATE OF `userId`, `completed` ON `todos_table`
WHEN NEW.`userId` IS NOT NULL AND (OLD.`userId` IS NOT NEW.`userId` OR (OLD.`completed` <> 0) IS NOT (NEW.`completed` <> 0)) BEGIN
	UPDATE `todo_counts_table` SET `total` = `total` - 1, `completed` = `completed` - (OLD.`completed` <> 0)
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `todo_counts_table` WHERE `userId` = OLD.`userId` AND `total` = 0;
	INSERT INTO `todo_counts_table` (`userId`, `total`, `completed`) VALUES (NEW.`userId`, 1, NEW.`completed` <> 0)
	ON CONFLICT (`userId`) DO UPDATE SET `total` = `total` + 1, `completed` = `completed` + excluded.`completed`;
END;
--> statement-breakpoint
CREATE TRIGGER `org_todo_counts_after_insert` AFTER INSERT ON `todos_table` WHEN NEW.`orgId` IS NOT NULL BEGIN
	INSERT INTO `org_todo_counts_table` (`orgId`, `total`, `completed`) VALUES (NEW.`orgId`, 1, NEW.`completed` <> 0)
	ON CONFLICT (`orgId`) DO UPDATE SET `total` = `total` + 1, `completed` = `completed` + excluded.`completed`;
END;
--> statement-breakpoint
CREATE TRIGGER `org_todo_counts_after_delete` AFTER DELETE ON `todos_table` WHEN OLD.`orgId` IS NOT NULL BEGIN
	UPDATE `org_todo_counts_table` SET `total` = `total` - 1, `completed` = `completed` - (OLD.`completed` <> 0)
	WHERE `orgId` = OLD.`orgId`;
	DELETE FROM `org_todo_counts_table` WHERE `orgId` = OLD.`orgId` AND `total` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `org_todo_counts_after_update` AFTER UPDATE OF `completed` ON `todos_table`
WHEN NEW.`orgId` IS NOT NULL AND (OLD.`completed` <> 0) IS NOT (NEW.`completed` <> 0) BEGIN
	UPDATE `org_todo_counts_table` SET `completed` = `completed` + (NEW.`completed` <> 0) - (OLD.`completed` <> 0)
	WHERE `orgId` = NEW.`orgId`;
END;
--> statement-breakpoint
-- The change log (0006_sync.sql, 0019_team_todos.sql). Not for authorship alone (erasure nulls a gone author).
CREATE TRIGGER `todo_changes_after_insert` AFTER INSERT ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`orgId`, NEW.`id`, 'created', NEW.`version`);
END;
--> statement-breakpoint
CREATE TRIGGER `todo_changes_after_update` AFTER UPDATE OF `id`, `userId`, `title`, `description`, `completed`, `scheduleAt`, `completedAt`, `version`, `createdAt`, `updatedAt`, `orgId` ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`orgId`, NEW.`id`, 'updated', NEW.`version`);
END;
--> statement-breakpoint
-- Always a tombstone: no users or teams here to ask; erasing a workspace deletes its log after its todos.
CREATE TRIGGER `todo_changes_after_delete` AFTER DELETE ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`) VALUES (OLD.`userId`, OLD.`orgId`, OLD.`id`, 'deleted', OLD.`version` + 1);
END;
--> statement-breakpoint
-- Each user's and each team's stored bytes (0005_files.sql, 0018_team_files.sql).
CREATE TRIGGER `storage_usage_after_insert` AFTER INSERT ON `files_table` WHEN NEW.`orgId` IS NULL BEGIN
	INSERT INTO `storage_usage_table` (`userId`, `bytes`, `files`) VALUES (NEW.`userId`, NEW.`size`, 1)
	ON CONFLICT (`userId`) DO UPDATE SET `bytes` = `bytes` + excluded.`bytes`, `files` = `files` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `storage_usage_after_delete` AFTER DELETE ON `files_table` WHEN OLD.`orgId` IS NULL BEGIN
	UPDATE `storage_usage_table` SET `bytes` = `bytes` - OLD.`size`, `files` = `files` - 1
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `storage_usage_table` WHERE `userId` = OLD.`userId` AND `files` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `org_storage_usage_after_insert` AFTER INSERT ON `files_table` WHEN NEW.`orgId` IS NOT NULL BEGIN
	INSERT INTO `org_storage_usage_table` (`orgId`, `bytes`, `files`) VALUES (NEW.`orgId`, NEW.`size`, 1)
	ON CONFLICT (`orgId`) DO UPDATE SET `bytes` = `bytes` + excluded.`bytes`, `files` = `files` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `org_storage_usage_after_delete` AFTER DELETE ON `files_table` WHEN OLD.`orgId` IS NOT NULL BEGIN
	UPDATE `org_storage_usage_table` SET `bytes` = `bytes` - OLD.`size`, `files` = `files` - 1
	WHERE `orgId` = OLD.`orgId`;
	DELETE FROM `org_storage_usage_table` WHERE `orgId` = OLD.`orgId` AND `files` = 0;
END;
