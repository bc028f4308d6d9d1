-- Drives `a3s-test lsp` through Neovim's built-in LSP client (headless), for tests/lsp.rs.
-- Environment: A3S_TEST_BIN (the binary), A3S_LSP_FILE (the suite to open), A3S_LSP_OUT (where
-- the answers are written as JSON). Every wait has a deadline; a missed one is recorded, not
-- waited out.

local bin = os.getenv('A3S_TEST_BIN')
local file = os.getenv('A3S_LSP_FILE')
local out_path = os.getenv('A3S_LSP_OUT')
local WAIT_MS = 20000
local out = { steps = {} }

local function note(step) table.insert(out.steps, step) end

local function finish()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'a3s-test',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
  })
  assert(client_id, 'the client started')
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local function diagnostics()
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      table.insert(found, { code = code, line = d.lnum, col = d.col, message = d.message })
    end
    return found
  end

  -- 1. Diagnostics with codes.
  out.got_diagnostics = vim.wait(WAIT_MS, function() return #vim.diagnostic.get(buf) > 0 end, 10)
  out.diagnostics = diagnostics()

  local function position(line, character)
    return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
  end
  local function request(method, params)
    local answer, request_err = client.request_sync(method, params, WAIT_MS, buf)
    if not answer then return { error = tostring(request_err) } end
    if answer.err then return { error = answer.err.message } end
    return { result = answer.result }
  end

  -- 2. Hover on the `navigate` of line 4 and completion at the start of the empty line 7.
  out.hover = request('textDocument/hover', position(4, 10))
  out.completion = request('textDocument/completion', position(7, 8))

  -- 3. The quick fixes at the first diagnostic; the preferred one is applied.
  local first = vim.diagnostic.get(buf)[1]
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = first.lnum, character = first.col }, ['end'] = { line = first.end_lnum, character = first.end_col } },
    context = { diagnostics = {} },
  })
  out.actions = actions
  for _, action in ipairs(actions.result or {}) do
    if action.isPreferred then
      vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
      note('applied: ' .. action.title)
      break
    end
  end

  -- 4. Formatting, applied; then the file is written and the diagnostics clear.
  local formatting = request('textDocument/formatting', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    options = { tabSize = 4, insertSpaces = true },
  })
  out.formatting_edits = formatting.result and #formatting.result or -1
  if formatting.result then
    vim.lsp.util.apply_text_edits(formatting.result, buf, 'utf-16')
  end
  vim.cmd('write')
  out.cleared = vim.wait(WAIT_MS, function() return #vim.diagnostic.get(buf) == 0 end, 10)
  out.diagnostics_after = diagnostics()

  -- 5. Shutdown and exit through the client.
  client.stop()
  out.stopped = vim.wait(WAIT_MS, function() return vim.lsp.client_is_stopped(client_id) end, 10)
end)
out.ok = ok
out.error = ok and vim.NIL or tostring(err)
finish()
