-- Every action names its kind in `type` (issue 57): the Rumis actions logged before
-- without one, {"move": …} and {"stone": …, "cells": …}, become `rumis_move` and
-- `rumis_place`, in the form the server writes them. Rummikub's had a type already.
UPDATE rumi_actions
SET action = json_object('type', 'rumis_move', 'move', json_extract(action, '$.move'))
WHERE json_type(action, '$.type') IS NULL AND json_type(action, '$.move') IS NOT NULL;
UPDATE rumi_actions
SET action = json_object(
    'type', 'rumis_place',
    'stone', json_extract(action, '$.stone'),
    'cells', json(json_extract(action, '$.cells'))
)
WHERE json_type(action, '$.type') IS NULL AND json_type(action, '$.stone') IS NOT NULL;
