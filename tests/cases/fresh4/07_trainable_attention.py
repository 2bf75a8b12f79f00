"""Fourth fresh set, notebook 07: learner answers written without the key (checked only with selfcheck.py).

The mhsa_forward cases are one learner's full answer (_LAYER, written for this set) with one slip each."""

import textwrap

_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "d_out must be divisible by n_heads"
        self.d_out = d_out
        self.n_heads = n_heads
        self.head_dim = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length)).bool())

    def forward(self, inputs):
        b, n, _ = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k.transpose(2, 3))
        if self.scale:
            scores = scores / self.head_dim ** 0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:n, :n] == 0, -torch.inf)
        attn = torch.softmax(scores, dim=-1)
        self.last_weights = attn.detach()
        attn = self.dropout(attn)
        ctx = torch.matmul(attn, v).permute(0, 2, 1, 3).contiguous().view(b, n, self.d_out)
        return self.w_out(ctx)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    mha = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=inputs.shape[1], dropout=0.5, causal=causal)
    mha = mha.to(inputs.dtype)
    with torch.no_grad():
        mha.w_query.weight.copy_(w_query.T)
        mha.w_key.weight.copy_(w_key.T)
        mha.w_value.weight.copy_(w_value.T)
        mha.w_out.weight.copy_(w_out.T)
    mha.eval()
    with torch.no_grad():
        out = mha(inputs)
    return out
'''


def _slip(*pairs):
    source = _LAYER
    for old, new in pairs:
        assert old in source, old
        source = source.replace(old, new)
    return source


_SPLIT = ".view(b, n, self.n_heads, self.head_dim).permute(0, 2, 1, 3)"


def _fn(signature: str, body: str) -> str:
    return f"def {signature}:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


def _e(body):
    return _fn("sinusoidal_encoding(n_positions, d_model)", body)


def _r(body):
    return _fn("rotary_embedding(x, positions)", body)


def _k(body):
    return _fn("kv_cache_step(queries, keys, values, cached_keys, cached_values)", body)


def _enc(freq="10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)",
         pos="torch.arange(n_positions, dtype=torch.float32)", even="torch.sin(angles)", odd="torch.cos(angles)"):
    return _e(f"""
        pos = {pos}[:, None]
        freq = {freq}
        angles = pos * freq
        pe = torch.zeros(n_positions, d_model)
        pe[:, 0::2] = {even}
        pe[:, 1::2] = {odd}
        return pe
    """)


def _rope(theta="10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)", angles="positions.to(x.dtype)[:, None] * theta",
          first="x1 * cos - x2 * sin", second="x1 * sin + x2 * cos"):
    return _r(f"""
        d = x.shape[-1]
        theta = {theta}
        angles = {angles}
        cos, sin = angles.cos(), angles.sin()
        x1, x2 = x[..., 0::2], x[..., 1::2]
        out = torch.empty_like(x)
        out[..., 0::2] = {first}
        out[..., 1::2] = {second}
        return out
    """)


def _cache(keys_cat="torch.cat([cached_keys, keys], dim=-2)", values_cat="torch.cat([cached_values, values], dim=-2)",
           diagonal="n_all - n_new", scale="math.sqrt(queries.shape[-1])", transpose="all_k.transpose(-2, -1)",
           fill="scores.masked_fill(~allowed, float('-inf'))"):
    return _k(f"""
        all_k = {keys_cat}
        all_v = {values_cat}
        n_new, n_all = queries.shape[-2], all_k.shape[-2]
        allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal={diagonal})
        scores = queries @ {transpose} / {scale}
        scores = {fill}
        return torch.softmax(scores, dim=-1) @ all_v
    """)


MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed": _slip(*((f"copy_({w}.T)", f"copy_({w})")
                                               for w in ("w_query", "w_key", "w_value", "w_out"))),
        "linear_weight_not_transposed:w_out_only": _slip(("copy_(w_out.T)", "copy_(w_out)")),
        "heads_reshape_without_transpose:split": _slip((_SPLIT, ".view(b, self.n_heads, n, self.head_dim)")),
        "heads_reshape_without_transpose:merge": _slip(
            ("torch.matmul(attn, v).permute(0, 2, 1, 3).contiguous()", "torch.matmul(attn, v).contiguous()")),
        "heads_interleaved": _slip((_SPLIT, ".view(b, n, self.head_dim, self.n_heads).permute(0, 3, 1, 2)")),
        "no_scaling": _slip(("scores = scores / self.head_dim ** 0.5", "pass")),
        "scale_by_d_k": _slip(("self.head_dim ** 0.5", "self.head_dim")),
        "uncatalogued:scale_by_sqrt_d_out": _slip(("self.head_dim ** 0.5", "self.d_out ** 0.5")),
        "causal_mask_upper": _slip(("torch.tril(torch.ones", "torch.triu(torch.ones")),
        "causal_mask_off_by_one": _slip(("torch.ones(context_length, context_length))",
                                         "torch.ones(context_length, context_length), diagonal=-1)")),
        "causal_flag_ignored:always_masked": _slip(("if self.causal:", "if True:")),
        "causal_flag_ignored:never_masked": _slip(("if self.causal:", "if False:")),
        "mask_wrong_sign": _slip(("self.mask[:n, :n] == 0", "self.mask[:n, :n]")),
        "mask_with_zero": _slip(("-torch.inf)", "0.0)")),
        "mask_after_softmax": _slip(
            ("scores = scores.masked_fill(self.mask[:n, :n] == 0, -torch.inf)", "pass"),
            ("attn = torch.softmax(scores, dim=-1)\n",
             "attn = torch.softmax(scores, dim=-1)\n"
             "        if self.causal:\n"
             "            attn = attn.masked_fill(self.mask[:n, :n] == 0, 0.0)\n")),
        "softmax_wrong_axis": _slip(("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)")),
        "weights_transposed": _slip(("torch.matmul(attn, v)", "torch.matmul(attn.transpose(-2, -1), v)")),
        "missing_output_projection": _slip(("return self.w_out(ctx)", "return ctx")),
        "mixed_up_projections": _slip(("v = self.w_value(inputs)", "v = self.w_key(inputs)")),
        "keys_times_queries": _slip(("torch.matmul(q, k.transpose(2, 3))", "torch.matmul(k, q.transpose(2, 3))")),
        "lower_precision": _slip(("mha = mha.to(inputs.dtype)", "mha = mha.float()"),
                                 ("out = mha(inputs)", "out = mha(inputs.float())")),
        "returns_weights": _slip(("    return out\n", "    return mha.last_weights\n")),
        "uncatalogued:no_eval": _slip(("    mha.eval()\n", "")),
        "uncatalogued:no_dtype_cast": _slip(("    mha = mha.to(inputs.dtype)\n", "")),
        "uncatalogued:dropout_before_storing": _slip(
            ("self.last_weights = attn.detach()\n        attn = self.dropout(attn)",
             "attn = self.dropout(attn)\n        self.last_weights = attn.detach()"),
            ("    mha.eval()\n", "")),
    },
    "sinusoidal_encoding": {
        "sinusoid_halves_not_interleaved": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
            freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
            return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=-1)
        """),
        "sin_cos_swapped": _enc(even="torch.cos(angles)", odd="torch.sin(angles)"),
        "sinusoid_wrong_exponent": _enc(
            freq="10000.0 ** (-torch.arange(d_model // 2, dtype=torch.float32) / d_model)"),
        "sinusoid_wrong_exponent:per_column": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
            angles = pos * 10000.0 ** (-torch.arange(d_model, dtype=torch.float32) / d_model)
            pe = torch.zeros(n_positions, d_model)
            pe[:, 0::2] = torch.sin(angles[:, 0::2])
            pe[:, 1::2] = torch.cos(angles[:, 1::2])
            return pe
        """),
        "sinusoid_wrong_exponent:sign": _enc(
            freq="10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)"),
        "positions_from_one": _enc(pos="torch.arange(1, n_positions + 1, dtype=torch.float32)"),
        "integer_arithmetic:floordiv": _enc(freq="10000.0 ** (-(torch.arange(0, d_model, 2) // d_model)).float()"),
        "loop_leftover": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)
            pe = torch.zeros(n_positions, d_model)
            for i in range(d_model // 2 - 1):
                angle = pos / 10000.0 ** (2 * i / d_model)
                pe[:, 2 * i] = torch.sin(angle)
                pe[:, 2 * i + 1] = torch.cos(angle)
            return pe
        """),
        "uncatalogued:returns_float64": _e("""
            pos = np.arange(n_positions)[:, None]
            angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
            pe = np.zeros((n_positions, d_model))
            pe[:, 0::2] = np.sin(angles)
            pe[:, 1::2] = np.cos(angles)
            return torch.from_numpy(pe)
        """),
        "uncatalogued:base_1000": _enc(freq="1000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)"),
        "uncatalogued:transposed": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
            angles = pos * 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
            pe = torch.zeros(n_positions, d_model)
            pe[:, 0::2] = torch.sin(angles)
            pe[:, 1::2] = torch.cos(angles)
            return pe.T
        """),
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction": _rope(first="x1 * cos + x2 * sin", second="-x1 * sin + x2 * cos"),
        "sin_cos_swapped": _rope(first="x1 * sin - x2 * cos", second="x1 * cos + x2 * sin"),
        "rope_halves_instead_of_pairs": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = positions.to(x.dtype)[:, None] * theta
            cos, sin = angles.cos(), angles.sin()
            x1, x2 = x[..., : d // 2], x[..., d // 2:]
            return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
        """),
        "rope_ignores_positions": _rope(angles="torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta"),
        "sinusoid_wrong_exponent": _rope(theta="10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)"),
        "changes_inputs_in_place": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = positions.to(x.dtype)[:, None] * theta
            cos, sin = angles.cos(), angles.sin()
            x1, x2 = x[..., 0::2].clone(), x[..., 1::2].clone()
            x[..., 0::2] = x1 * cos - x2 * sin
            x[..., 1::2] = x1 * sin + x2 * cos
            return x
        """),
        "lower_precision:angles_float32": _rope(
            theta="10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)",
            angles="positions.float()[:, None] * theta"),
        "rope_pair_overwritten_before_use:uses_rotated_even": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = positions.to(x.dtype)[:, None] * theta
            out = x.clone()
            out[..., 0::2] = x[..., 0::2] * angles.cos() - x[..., 1::2] * angles.sin()
            out[..., 1::2] = out[..., 0::2] * angles.sin() + x[..., 1::2] * angles.cos()
            return out
        """),
        "sinusoid_wrong_exponent:no_division_by_d": _rope(theta="10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype))"),
    },
    "kv_cache_step": {
        "kv_cache_new_tokens_missing": _k("""
            scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
            return torch.softmax(scores, dim=-1) @ cached_values
        """),
        "kv_cache_ignored": _cache(keys_cat="keys", values_cat="values"),
        "kv_cache_wrong_order": _cache(keys_cat="torch.cat([keys, cached_keys], dim=-2)",
                                       values_cat="torch.cat([values, cached_values], dim=-2)"),
        "kv_cache_mask_not_shifted": _cache(diagonal="0"),
        "kv_cache_mask_not_shifted:is_causal": _k("""
            all_k = torch.cat([cached_keys, keys], dim=-2)
            all_v = torch.cat([cached_values, values], dim=-2)
            return nn.functional.scaled_dot_product_attention(queries, all_k, all_v, is_causal=True)
        """),
        "kv_cache_mask_missing": _cache(fill="scores"),
        "no_scaling": _cache(scale="1.0"),
        "scale_by_d_k": _cache(scale="queries.shape[-1]"),
        "scale_by_sqrt_tokens": _cache(scale="math.sqrt(n_all)"),
        "keys_transpose_all_axes": _cache(transpose="all_k.T"),
        "mask_wrong_sign": _cache(fill="scores.masked_fill(allowed, float('-inf'))"),
        "causal_mask_off_by_one:sees_next": _cache(diagonal="n_all - n_new + 1"),
        "changes_inputs_in_place": _k("""
            queries /= math.sqrt(queries.shape[-1])
            all_k = torch.cat([cached_keys, keys], dim=-2)
            all_v = torch.cat([cached_values, values], dim=-2)
            n_new, n_all = queries.shape[-2], all_k.shape[-2]
            allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
            scores = (queries @ all_k.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
            return torch.softmax(scores, dim=-1) @ all_v
        """),
        "lower_precision": _k("""
            all_k = torch.cat([cached_keys, keys], dim=-2).float()
            all_v = torch.cat([cached_values, values], dim=-2).float()
            n_new, n_all = queries.shape[-2], all_k.shape[-2]
            allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
            scores = queries.float() @ all_k.transpose(-2, -1) / math.sqrt(queries.shape[-1])
            return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ all_v
        """),
        "uncatalogued:scale_by_d_v": _cache(scale="math.sqrt(values.shape[-1])"),
        "uncatalogued:returns_tuple": _k("""
            all_k = torch.cat([cached_keys, keys], dim=-2)
            all_v = torch.cat([cached_values, values], dim=-2)
            n_new, n_all = queries.shape[-2], all_k.shape[-2]
            allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
            scores = queries @ all_k.transpose(-2, -1) / math.sqrt(queries.shape[-1])
            context = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ all_v
            return context, all_k, all_v
        """),
        "causal_mask_off_by_one:hides_self": _cache(diagonal="cached_keys.shape[-2] - 1"),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "as_written": _LAYER,
        "load_state_dict": _slip(
            ("""    with torch.no_grad():
        mha.w_query.weight.copy_(w_query.T)
        mha.w_key.weight.copy_(w_key.T)
        mha.w_value.weight.copy_(w_value.T)
        mha.w_out.weight.copy_(w_out.T)
""", """    state = {"w_query.weight": w_query.T, "w_key.weight": w_key.T, "w_value.weight": w_value.T,
             "w_out.weight": w_out.T, "mask": mha.mask}
    mha.load_state_dict({name: t.to(inputs.dtype) for name, t in state.items() if name != "mask"} | {"mask": mha.mask})
""")),
        "reshape_transpose_where": _slip(
            (_SPLIT, ".reshape(b, n, self.n_heads, -1).transpose(1, 2)"),
            ("scores.masked_fill(self.mask[:n, :n] == 0, -torch.inf)",
             "torch.where(self.mask[:n, :n], scores, torch.full_like(scores, float('-inf')))"),
            (".permute(0, 2, 1, 3).contiguous().view(b, n, self.d_out)", ".transpose(1, 2).reshape(b, n, -1)")),
    },
    "sinusoidal_encoding": {
        "stack_interleave": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
            freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
            angles = pos * freq
            return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model)
        """),
        "pair_loop": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32)
            pe = torch.empty(n_positions, d_model, dtype=torch.float32)
            for i in range(0, d_model, 2):
                angle = pos * 10000.0 ** (-i / d_model)
                pe[:, i] = torch.sin(angle)
                pe[:, i + 1] = torch.cos(angle)
            return pe
        """),
        "exp_log": _e("""
            pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
            div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
            pe = torch.zeros(n_positions, d_model)
            pe[:, 0::2] = torch.sin(pos * div)
            pe[:, 1::2] = torch.cos(pos * div)
            return pe
        """),
    },
    "rotary_embedding": {
        "stack_flatten": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = positions.to(x.dtype).unsqueeze(-1) * theta
            c, s = torch.cos(angles), torch.sin(angles)
            even, odd = x[..., ::2], x[..., 1::2]
            return torch.stack([even * c - odd * s, even * s + odd * c], dim=-1).flatten(-2)
        """),
        "rotate_half_interleaved": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = (positions.to(x.dtype)[:, None] * theta).repeat_interleave(2, dim=-1)
            rotated = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).flatten(-2)
            return x * angles.cos() + rotated * angles.sin()
        """),
        "complex": _r("""
            d = x.shape[-1]
            theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
            angles = positions.to(x.dtype)[:, None] * theta
            z = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
            turned = z * torch.polar(torch.ones_like(angles), angles)
            return torch.view_as_real(turned).reshape(x.shape)
        """),
    },
    "kv_cache_step": {
        "sdpa_mask": _k("""
            k = torch.cat((cached_keys, keys), dim=-2)
            v = torch.cat((cached_values, values), dim=-2)
            n_new, n_all = queries.shape[-2], k.shape[-2]
            allowed = torch.arange(n_all)[None, :] <= torch.arange(n_new)[:, None] + (n_all - n_new)
            return nn.functional.scaled_dot_product_attention(queries, k, v, attn_mask=allowed)
        """),
        "where": _cache(fill="torch.where(allowed, scores, torch.tensor(float('-inf'), dtype=scores.dtype))"),
    },
}
