-- A write that keeps its Idempotency-Key in its own batch (POST /api/todos) stores the rows it wrote, as JSON.
ALTER TABLE `idempotency_keys_table` ADD `result` text;