CREATE TABLE `idempotency_keys_table` (
	`userId` integer NOT NULL,
	`route` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text,
	`state` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`userId`, `route`, `key`),
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at_idx` ON `idempotency_keys_table` (`createdAt`);--> statement-breakpoint
CREATE TABLE `todo_changes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`todoId` integer NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `todo_changes_user_id_idx` ON `todo_changes_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todo_changes_created_at_idx` ON `todo_changes_table` (`createdAt`);--> statement-breakpoint
CREATE TABLE `todo_sync_floors_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`purgedThrough` integer NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `todos_table` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
-- Backfill: the todos already stored enter the log as created, so a sync from the start sees them.
INSERT INTO `todo_changes_table` (`userId`, `todoId`, `kind`, `version`)
SELECT `userId`, `id`, 'created', `version` FROM `todos_table` ORDER BY `id`;--> statement-breakpoint
-- The change log is kept by triggers, so every write of a todo lands in it within the write's own
-- transaction, whatever the path (the API, the AI tools, MCP, or SQL in the D1 console).
CREATE TRIGGER `todo_changes_after_insert` AFTER INSERT ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`id`, 'created', NEW.`version`);
END;
--> statement-breakpoint
CREATE TRIGGER `todo_changes_after_update` AFTER UPDATE ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `todoId`, `kind`, `version`) VALUES (NEW.`userId`, NEW.`id`, 'updated', NEW.`version`);
END;
--> statement-breakpoint
-- A delete counts as a write: its tombstone carries the version after the last one. Not for a todo
-- that goes with its user (cascade): the user's log goes too, and nobody is left to sync.
CREATE TRIGGER `todo_changes_after_delete` AFTER DELETE ON `todos_table` BEGIN
	INSERT INTO `todo_changes_table` (`userId`, `todoId`, `kind`, `version`)
	SELECT OLD.`userId`, OLD.`id`, 'deleted', OLD.`version` + 1 WHERE EXISTS (SELECT 1 FROM `users_table` WHERE `id` = OLD.`userId`);
END;
