-- Team todos (issue 41): a todo, its change-log rows and its trash row belong to a user (userId) or to a
-- team (orgId), and name who created and last changed them. userId becomes nullable, which SQLite does
-- only by rebuilding the table. Hand-edited from drizzle-kit's output: D1 keeps foreign keys on, so
-- dropping todos_table deletes its attachment rows by cascade; they are copied aside and put back, and
-- the triggers (dropped with their table) are dropped first and made again, aware of teams.
CREATE TABLE `org_todo_counts_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	`completed` integer NOT NULL,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `org_todo_sync_floors_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`purgedThrough` integer NOT NULL,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP TRIGGER `todo_counts_after_insert`;--> statement-breakpoint
DROP TRIGGER `todo_counts_after_delete`;--> statement-breakpoint
DROP TRIGGER `todo_counts_after_update`;--> statement-breakpoint
DROP TRIGGER `todo_changes_after_insert`;--> statement-breakpoint
DROP TRIGGER `todo_changes_after_update`;--> statement-breakpoint
DROP TRIGGER `todo_changes_after_delete`;--> statement-breakpoint
CREATE TABLE `__todo_attachments_aside` AS SELECT * FROM `todo_attachments_table`;--> statement-breakpoint
CREATE TABLE `__new_todos_table` (
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
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`createdBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null,
	FOREIGN KEY (`updatedBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null,
	CONSTRAINT "todos_one_owner" CHECK(("userId" IS NULL) <> ("orgId" IS NULL))
);
--> statement-breakpoint
-- Personal todos were created and last changed by their owner.
INSERT INTO `__new_todos_table`("id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "createdAt", "updatedAt", "orgId", "createdBy", "updatedBy") SELECT "id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "createdAt", "updatedAt", NULL, "userId", "userId" FROM `todos_table`;--> statement-breakpoint
-- Keeps AUTOINCREMENT's high-water mark: a deleted todo's id is never handed out again (its restore needs it).
DELETE FROM `sqlite_sequence` WHERE `name` = '__new_todos_table';--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_todos_table', max(coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'todos_table'), 0), coalesce((SELECT max(`id`) FROM `__new_todos_table`), 0));--> statement-breakpoint
DROP TABLE `todos_table`;--> statement-breakpoint
ALTER TABLE `__new_todos_table` RENAME TO `todos_table`;--> statement-breakpoint
INSERT INTO `todo_attachments_table` SELECT * FROM `__todo_attachments_aside` WHERE `id` NOT IN (SELECT `id` FROM `todo_attachments_table`);--> statement-breakpoint
DROP TABLE `__todo_attachments_aside`;--> statement-breakpoint
CREATE INDEX `todos_user_id_idx` ON `todos_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todos_user_completed_id_idx` ON `todos_table` (`userId`,`completed`,`id`);--> statement-breakpoint
CREATE INDEX `todos_org_id_idx` ON `todos_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `todos_org_completed_id_idx` ON `todos_table` (`orgId`,`completed`,`id`);--> statement-breakpoint
CREATE TABLE `__new_todo_changes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer,
	`orgId` integer,
	`todoId` integer NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_todo_changes_table`("id", "userId", "orgId", "todoId", "kind", "version", "createdAt") SELECT "id", "userId", NULL, "todoId", "kind", "version", "createdAt" FROM `todo_changes_table`;--> statement-breakpoint
-- The change ids are the sync cursors' positions: the sequence carries on past the purged ones.
DELETE FROM `sqlite_sequence` WHERE `name` = '__new_todo_changes_table';--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_todo_changes_table', max(coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'todo_changes_table'), 0), coalesce((SELECT max(`id`) FROM `__new_todo_changes_table`), 0));--> statement-breakpoint
DROP TABLE `todo_changes_table`;--> statement-breakpoint
ALTER TABLE `__new_todo_changes_table` RENAME TO `todo_changes_table`;--> statement-breakpoint
CREATE INDEX `todo_changes_user_id_idx` ON `todo_changes_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todo_changes_org_id_idx` ON `todo_changes_table` (`orgId`,`id`);--> statement-breakpoint
CREATE INDEX `todo_changes_created_at_idx` ON `todo_changes_table` (`createdAt`);--> statement-breakpoint
CREATE TABLE `__new_deleted_todos_table` (
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
	`updatedBy` integer,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`createdBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null,
	FOREIGN KEY (`updatedBy`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_deleted_todos_table`("id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "fileKeys", "createdAt", "updatedAt", "deletedAt", "orgId", "createdBy", "updatedBy") SELECT "id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "fileKeys", "createdAt", "updatedAt", "deletedAt", NULL, "userId", "userId" FROM `deleted_todos_table`;--> statement-breakpoint
DROP TABLE `deleted_todos_table`;--> statement-breakpoint
ALTER TABLE `__new_deleted_todos_table` RENAME TO `deleted_todos_table`;--> statement-breakpoint
CREATE INDEX `deleted_todos_deleted_at_idx` ON `deleted_todos_table` (`deletedAt`);--> statement-breakpoint
-- The counts of 0003, for users' todos only (a team's todo has no userId), and the same for teams.
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
-- A team's todo never changes team: only its completion moves its counts.
CREATE TRIGGER `org_todo_counts_after_update` AFTER UPDATE OF `completed` ON `todos_table`
WHEN NEW.`orgId` IS NOT NULL AND (OLD.`completed` <> 0) IS NOT (NEW.`completed` <> 0) BEGIN
	UPDATE `org_todo_counts_table` SET `completed` = `completed` + (NEW.`completed` <> 0) - (OLD.`completed` <> 0)
	WHERE `orgId` = NEW.`orgId`;
END;
--> statement-breakpoint
-- The change log of 0006, now in the log of the todo's owner, user or team.
CREATE TRIGGER `todo_changes_after_insert` AFTER INSERT ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`orgId`, NEW.`id`, 'created', NEW.`version`);
END;
--> statement-breakpoint
-- Not for authorship alone: a deleted author's id is set NULL in the cascade that may be deleting
-- the todo's user too, whose log row would then point at a deleted user.
CREATE TRIGGER `todo_changes_after_update` AFTER UPDATE OF `id`, `userId`, `title`, `description`, `completed`, `scheduleAt`, `completedAt`, `version`, `createdAt`, `updatedAt`, `orgId` ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`orgId`, NEW.`id`, 'updated', NEW.`version`);
END;
--> statement-breakpoint
-- Not for a todo that goes with its user or team (cascade): their log goes too.
CREATE TRIGGER `todo_changes_after_delete` AFTER DELETE ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `orgId`, `todoId`, `kind`, `version`)
	SELECT OLD.`userId`, OLD.`orgId`, OLD.`id`, 'deleted', OLD.`version` + 1
	WHERE EXISTS (SELECT 1 FROM `users_table` WHERE `id` = OLD.`userId`)
	OR EXISTS (SELECT 1 FROM `orgs_table` WHERE `id` = OLD.`orgId`);
END;
