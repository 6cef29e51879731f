CREATE TABLE `id_blocks_table` (
	`block` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shard` text NOT NULL,
	`claimedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `workspace_fences_table` (
	`workspaceId` integer PRIMARY KEY NOT NULL,
	`userId` integer,
	`orgId` integer,
	`suspended` integer DEFAULT false NOT NULL,
	`fencedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workspace_fences_user_idx` ON `workspace_fences_table` (`userId`);--> statement-breakpoint
CREATE INDEX `workspace_fences_org_idx` ON `workspace_fences_table` (`orgId`);--> statement-breakpoint
-- The fence (src/db/fences-schema.ts): no write reaches a fenced workspace's rows here, except the mover's own batches, which
-- suspend it inside their transaction. Counters kept by triggers (todo counts, storage usage) are fenced through
-- the tables they count.
CREATE TRIGGER `todos_fenced_insert` BEFORE INSERT ON `todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todos_fenced_update` BEFORE UPDATE ON `todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todos_fenced_delete` BEFORE DELETE ON `todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_attachments_fenced_insert` BEFORE INSERT ON `todo_attachments_table` WHEN EXISTS (SELECT 1 FROM `todos_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`todoId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_attachments_fenced_update` BEFORE UPDATE ON `todo_attachments_table` WHEN EXISTS (SELECT 1 FROM `todos_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`todoId`) OR EXISTS (SELECT 1 FROM `todos_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`todoId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_attachments_fenced_delete` BEFORE DELETE ON `todo_attachments_table` WHEN EXISTS (SELECT 1 FROM `todos_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`todoId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_changes_fenced_insert` BEFORE INSERT ON `todo_changes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_changes_fenced_update` BEFORE UPDATE ON `todo_changes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_changes_fenced_delete` BEFORE DELETE ON `todo_changes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_sync_floors_fenced_insert` BEFORE INSERT ON `todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_sync_floors_fenced_update` BEFORE UPDATE ON `todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `todo_sync_floors_fenced_delete` BEFORE DELETE ON `todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `org_todo_sync_floors_fenced_insert` BEFORE INSERT ON `org_todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = NEW.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `org_todo_sync_floors_fenced_update` BEFORE UPDATE ON `org_todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = OLD.`orgId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = NEW.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `org_todo_sync_floors_fenced_delete` BEFORE DELETE ON `org_todo_sync_floors_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = OLD.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_todos_fenced_insert` BEFORE INSERT ON `deleted_todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_todos_fenced_update` BEFORE UPDATE ON `deleted_todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_todos_fenced_delete` BEFORE DELETE ON `deleted_todos_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `files_fenced_insert` BEFORE INSERT ON `files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `files_fenced_update` BEFORE UPDATE ON `files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `files_fenced_delete` BEFORE DELETE ON `files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `file_links_fenced_insert` BEFORE INSERT ON `file_links_table` WHEN EXISTS (SELECT 1 FROM `files_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`fileId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `file_links_fenced_update` BEFORE UPDATE ON `file_links_table` WHEN EXISTS (SELECT 1 FROM `files_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`fileId`) OR EXISTS (SELECT 1 FROM `files_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`fileId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `file_links_fenced_delete` BEFORE DELETE ON `file_links_table` WHEN EXISTS (SELECT 1 FROM `files_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`fileId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `storage_reservations_fenced_insert` BEFORE INSERT ON `storage_reservations_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `storage_reservations_fenced_update` BEFORE UPDATE ON `storage_reservations_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `storage_reservations_fenced_delete` BEFORE DELETE ON `storage_reservations_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_files_fenced_insert` BEFORE INSERT ON `deleted_files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_files_fenced_update` BEFORE UPDATE ON `deleted_files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `deleted_files_fenced_delete` BEFORE DELETE ON `deleted_files_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `uploads_fenced_insert` BEFORE INSERT ON `uploads_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `uploads_fenced_update` BEFORE UPDATE ON `uploads_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((NEW.`orgId` IS NULL AND f.`userId` = NEW.`userId`) OR f.`orgId` = NEW.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `uploads_fenced_delete` BEFORE DELETE ON `uploads_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND ((OLD.`orgId` IS NULL AND f.`userId` = OLD.`userId`) OR f.`orgId` = OLD.`orgId`)) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `upload_parts_fenced_insert` BEFORE INSERT ON `upload_parts_table` WHEN EXISTS (SELECT 1 FROM `uploads_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`uploadId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `upload_parts_fenced_update` BEFORE UPDATE ON `upload_parts_table` WHEN EXISTS (SELECT 1 FROM `uploads_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`uploadId`) OR EXISTS (SELECT 1 FROM `uploads_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = NEW.`uploadId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `upload_parts_fenced_delete` BEFORE DELETE ON `upload_parts_table` WHEN EXISTS (SELECT 1 FROM `uploads_table` p JOIN `workspace_fences_table` f ON f.`suspended` = 0 AND ((p.`orgId` IS NULL AND f.`userId` = p.`userId`) OR f.`orgId` = p.`orgId`) WHERE p.`id` = OLD.`uploadId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `idempotency_keys_fenced_insert` BEFORE INSERT ON `idempotency_keys_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `idempotency_keys_fenced_update` BEFORE UPDATE ON `idempotency_keys_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `idempotency_keys_fenced_delete` BEFORE DELETE ON `idempotency_keys_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `chats_fenced_insert` BEFORE INSERT ON `chats_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `chats_fenced_update` BEFORE UPDATE ON `chats_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `chats_fenced_delete` BEFORE DELETE ON `chats_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `ai_usage_fenced_insert` BEFORE INSERT ON `ai_usage_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `ai_usage_fenced_update` BEFORE UPDATE ON `ai_usage_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `ai_usage_fenced_delete` BEFORE DELETE ON `ai_usage_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `notes_fenced_insert` BEFORE INSERT ON `notes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `notes_fenced_update` BEFORE UPDATE ON `notes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = NEW.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `notes_fenced_delete` BEFORE DELETE ON `notes_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`userId` = OLD.`userId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `audit_log_fenced_insert` BEFORE INSERT ON `audit_log_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = NEW.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `audit_log_fenced_update` BEFORE UPDATE ON `audit_log_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = OLD.`orgId`) OR EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = NEW.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;--> statement-breakpoint
CREATE TRIGGER `audit_log_fenced_delete` BEFORE DELETE ON `audit_log_table` WHEN EXISTS (SELECT 1 FROM `workspace_fences_table` f WHERE f.`suspended` = 0 AND f.`orgId` = OLD.`orgId`) BEGIN
	SELECT RAISE(ABORT, 'workspace_fenced');
END;
