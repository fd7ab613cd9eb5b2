/* No include guard: read again at every #include, under the caller's ITEM. */
ITEM(first)
ITEM(second)
